// Real git repositories for tests: made in a temp dir with an identity of their own, so no test
// depends on the machine's global git config (CI runs on a fresh machine that has none).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Environment for the test's own git calls: no system or global config is read. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

/** Runs git in `dir` and returns its trimmed stdout; throws with git's stderr on failure. */
export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: 'pipe',
  }).trim();
}

/** Writes files (relative path → content) under `dir`, making folders as needed. */
export function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/**
 * Makes `dir` a repository on branch `main` with `files` in its first commit, committed as
 * "Test <test@example.com>" (set in the repository's own config).
 */
export function makeGitRepo(
  dir: string,
  files: Readonly<Record<string, string>> = { 'README.md': '# demo\n' },
): string {
  gitIn(dir, 'init', '--quiet', '--initial-branch=main');
  gitIn(dir, 'config', 'user.name', 'Test');
  gitIn(dir, 'config', 'user.email', 'test@example.com');
  gitIn(dir, 'config', 'commit.gpgsign', 'false');
  writeFiles(dir, files);
  gitIn(dir, 'add', '--all');
  gitIn(dir, 'commit', '--quiet', '-m', 'first');
  return dir;
}

/** Commits every change in `dir` with `message`; returns the new commit. */
export function commitAll(dir: string, message: string): string {
  gitIn(dir, 'add', '--all');
  gitIn(dir, 'commit', '--quiet', '-m', message);
  return gitIn(dir, 'rev-parse', 'HEAD');
}

/** Local branches, by short name. */
export function branches(dir: string): string[] {
  return gitIn(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/')
    .split('\n')
    .filter(Boolean);
}

/**
 * What agents' worktrees left in the repository at `dir`: how many worktrees besides the main
 * checkout, and the agents' `warren/` branches.
 */
export function worktreeLeftovers(dir: string): { worktrees: number; branches: string[] } {
  return {
    worktrees: worktreePaths(dir).length - 1,
    branches: branches(dir).filter((name) => name.startsWith('warren/')),
  };
}

/** The paths of every worktree git knows of, the main checkout first. */
function worktreePaths(dir: string): string[] {
  return gitIn(dir, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}
