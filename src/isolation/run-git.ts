// Runs the real git as a child process: one call, its output, and a GitError that names the
// command and git's own message when it fails. No process outlives its call.
import { type ExecFileException, execFile } from 'node:child_process';
import { hasErrorMark } from '../core/error-mark.js';

/** Options for warren's own bookkeeping calls: the repository's hooks are for people's commands. */
export const NO_HOOKS: readonly string[] = ['-c', 'core.hooksPath=/dev/null'];

/** A git call longer than this is stuck (a lock held elsewhere, a hook waiting on input). */
const GIT_TIMEOUT_MS = 60_000;

/**
 * Variables that would point git somewhere else than the directory it runs in. A user's shell
 * may export them; warren's own calls must act on the repository they name, never another one.
 */
const REDIRECTING_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

export class GitError extends Error {
  readonly isGitError = true;
  /** git's stderr (or why it could not run), trimmed: what a person or the model reads. */
  readonly detail: string;
  readonly args: readonly string[];
  readonly exitCode: number | null;

  constructor(args: readonly string[], detail: string, exitCode: number | null) {
    super(`git ${args.join(' ')} failed: ${detail}`);
    this.name = 'GitError';
    this.args = args;
    this.detail = detail;
    this.exitCode = exitCode;
  }

  static isInstance(error: unknown): error is GitError {
    return hasErrorMark(error, 'isGitError');
  }
}

export interface GitOptions {
  /** Extra environment for this call (an author for a commit, say). */
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (`merge-base --is-ancestor` exits 1 for "no"). */
  okCodes?: readonly number[];
}

export interface GitOutput {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * `git <args>` in `cwd`. Prompts are off (no terminal to answer them), messages are in English
 * (they are shown and sometimes matched), and the redirecting variables above are dropped.
 * Rejects with a GitError on a failing exit code, a missing git, or the timeout.
 */
export function git(
  cwd: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<GitOutput> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REDIRECTING_VARIABLES) delete env[name];
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', LANGUAGE: 'C' }, options.env);
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env, timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr, code: 0 });
        const code = typeof error.code === 'number' ? error.code : null;
        if (code !== null && options.okCodes?.includes(code))
          return resolve({ stdout, stderr, code });
        reject(new GitError(args, failureDetail(error, stderr, cwd), code));
      },
    );
  });
}

function failureDetail(error: ExecFileException, stderr: string, cwd: string): string {
  if (error.code === 'ENOENT') {
    return `git could not be started in ${cwd}: either git is not installed (not found on PATH) or the directory does not exist`;
  }
  if (error.killed) return `it took longer than ${GIT_TIMEOUT_MS / 1000} s and was stopped`;
  const text = stderr.trim();
  return text === '' ? error.message : text;
}
