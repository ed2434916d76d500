// A project with a secret just outside it, for tests of what may read outside the allowed
// directories: real directories, real symlinks from the project to the secret, and a way to run
// a command with real bash and see whether the secret shows.
import { spawnSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDir } from '../temp-dir.js';

export interface OutsideSandbox {
  /** Holds `project/` and `outside/`. */
  root: string;
  /** The allowed directory and the working directory. */
  project: string;
  outside: string;
  /** The content of `outside/canary.txt`; it appears in no path and no command. */
  secret: string;
  /** `{ cwd: project, allowedDirs: [project] }`. */
  scope: { cwd: string; allowedDirs: string[] };
}

export interface SandboxOptions {
  /**
   * Symlinks in the project that lead outside: `link_file` (to canary.txt), `link_dir` (to
   * outside/) and `sub/deep_link` (to canary.txt). Default true.
   */
  linksOut?: boolean;
}

/**
 * project/: a.js, notes.txt, sub/b.txt and, by default, the links out;
 * outside/: canary.txt, holding `secret`.
 */
export async function makeOutsideSandbox(options: SandboxOptions = {}): Promise<OutsideSandbox> {
  const root = await makeTempDir('warren-outside-');
  const project = path.join(root, 'project');
  const outside = path.join(root, 'outside');
  const secret = `CANARY-${Math.random().toString(36).slice(2)}-${process.pid}`;
  await mkdir(path.join(project, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'canary.txt'), `${secret}\n`);
  await writeFile(path.join(project, 'a.js'), 'console.log("a");\n');
  await writeFile(path.join(project, 'notes.txt'), 'nothing to see\n');
  await writeFile(path.join(project, 'sub', 'b.txt'), 'b\n');
  if (options.linksOut ?? true) {
    await symlink('../outside/canary.txt', path.join(project, 'link_file'));
    await symlink('../outside', path.join(project, 'link_dir'));
    await symlink('../../outside/canary.txt', path.join(project, 'sub', 'deep_link'));
  }
  return { root, project, outside, secret, scope: { cwd: project, allowedDirs: [project] } };
}

/** A fresh sandbox for every test of the calling file or `describe`, removed after it. */
export function useOutsideSandbox(options?: SandboxOptions): () => OutsideSandbox {
  let sandbox: OutsideSandbox | undefined;
  beforeEach(async () => {
    sandbox = await makeOutsideSandbox(options);
  });
  afterEach(async () => {
    if (sandbox !== undefined) await rm(sandbox.root, { recursive: true, force: true });
    sandbox = undefined;
  });
  return () => {
    if (sandbox === undefined) throw new Error('useOutsideSandbox(): it exists only during a test');
    return sandbox;
  };
}

/**
 * Runs `command` with `bash -c` in `cwd`, as the Bash tool does (stdin closed), and returns
 * stdout and stderr together. `env` replaces the environment; the run stops after `timeoutMs`.
 */
export function runBash(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 5_000,
): string {
  const result = spawnSync('bash', ['-c', command], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
    maxBuffer: 4 * 1024 * 1024,
  });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}
