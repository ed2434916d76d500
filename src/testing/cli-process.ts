// The built `warren` command run as a real process for tests, its output collected: how the
// CLI tests see warren, as a person at a terminal would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const WARREN_BIN = fileURLToPath(new URL('../../bin/warren.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `warren <args>` with exactly the environment given (plus PATH), to its exit. */
export function runWarren(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; stdin?: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARREN_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(options.stdin ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `warren` process still running: its output so far, a wait for a line, and kill. */
export interface RunningWarren {
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the first stdout line that `test` accepts (rejects if the process ends first). */
  lineMatching(test: (line: string) => boolean): Promise<string>;
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited. */
  exited: Promise<CliRun>;
}

/** Starts `warren <args>` and returns at once, for tests that stop it midway (kill -9). */
export function startWarren(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string },
): RunningWarren {
  const child = spawn(process.execPath, [WARREN_BIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    for (const watch of watchers) watch();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<CliRun>((resolve) => {
    child.on('close', (code) => {
      for (const watch of watchers) watch();
      resolve({ code, stdout, stderr });
    });
  });
  let closed = false;
  void exited.then(() => {
    closed = true;
  });
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    kill: (signal) => child.kill(signal),
    exited,
    lineMatching(test) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = stdout.split('\n').find((candidate) => candidate && test(candidate));
          if (line !== undefined) {
            watchers.delete(check);
            resolve(line);
          } else if (closed || child.exitCode !== null) {
            watchers.delete(check);
            reject(new Error(`warren exited before the line came; stderr: ${stderr}`));
          }
        };
        watchers.add(check);
        check();
      });
    },
  };
}
