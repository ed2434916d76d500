// The built `warren` command run as a real process for tests, its output collected: how the
// CLI tests see warren, as a person at a terminal would (or a host that signals or kills it).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WARREN_BIN = fileURLToPath(new URL('../../bin/warren.js', import.meta.url));

/** The environment of a person whose HOME is `home`, warren's own folder in it. */
export function homeEnv(home: string): Record<string, string> {
  return { HOME: home, WARREN_HOME: join(home, '.warren') };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `warren <args>` with exactly the environment given (plus PATH), to its exit. With
 * `timeoutMs`, a process still running then is killed (code null), so a hang fails its test
 * without outliving it.
 */
export function runWarren(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; stdin?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARREN_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, ...options.env },
    });
    const timer = options.timeoutMs && setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(options.stdin ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The lines of stream-json output, each parsed (untyped: tests read fields the contract names). */
export function jsonLines(stdout: string) {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A `warren` process still running: its output so far, and a way to wait for a line of it. */
export interface RunningWarren {
  readonly child: ChildProcessWithoutNullStreams;
  /** The JSON lines of stdout so far (stream-json), each parsed. */
  readonly lines: Array<Record<string, unknown>>;
  /** Resolves once a stdout line satisfies `predicate` (checking the lines already in). */
  waitForLine(predicate: (line: Record<string, unknown>) => boolean): Promise<void>;
  /** Resolves when the process has exited and its output is complete. */
  readonly exited: Promise<CliRun>;
}

/**
 * Starts `warren <args>` (usually with `--output-format stream-json`) and hands it back while
 * it runs, for tests that signal or kill it. `shell` is a bash script that gets the command as
 * `"$@"`, e.g. `ulimit -n 256; exec "$@"`.
 */
export function startWarren(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; shell?: string },
): RunningWarren {
  const command = [process.execPath, WARREN_BIN, ...args];
  const child = options.shell
    ? spawn('bash', ['-c', options.shell, 'warren', ...command], {
        cwd: options.cwd,
        env: { PATH: process.env.PATH, ...options.env },
      })
    : spawn(command[0]!, command.slice(1), {
        cwd: options.cwd,
        env: { PATH: process.env.PATH, ...options.env },
      });
  const lines: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stdout += text;
    // A long line (a runaway reply in text mode) is only joined, never split again and again.
    partial += text;
    if (!text.includes('\n')) return;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) if (line.startsWith('{')) lines.push(JSON.parse(line));
    for (const waiter of waiters) waiter();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end();
  const exited = new Promise<CliRun>((resolve) => {
    child.on('close', (code) => {
      for (const waiter of waiters) waiter();
      resolve({ code, stdout, stderr });
    });
  });
  return {
    child,
    lines,
    exited,
    waitForLine(predicate) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (lines.some(predicate)) {
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`warren exited before the line came; stderr: ${stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
