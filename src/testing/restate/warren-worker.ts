// `warren restate serve` as a real process for tests: started on a given port, its URL read from
// its first line, stopped with SIGTERM or killed -9 (a crash) by its PID only. Internal to
// warren's own tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { WARREN_BIN } from '../cli-process.js';

export interface WarrenWorker {
  readonly url: string;
  readonly pid: number;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** kill -9: nothing flushed, invocations in flight cut off. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a worker on 127.0.0.1:`port` with exactly `env` (plus PATH) and `args` after
 * `--port`; resolves once it listens.
 */
export function startWarrenWorker(
  port: number,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<WarrenWorker> {
  const child = spawn(
    process.execPath,
    [WARREN_BIN, 'restate', 'serve', '--port', String(port), ...args],
    { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  ended.then(() => running.delete(child));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await ended;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`warren restate serve exited (${code}) before it listened: ${stderr}`)),
    );
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (!url) return;
      resolve({
        url,
        pid: child.pid ?? -1,
        stderr: () => stderr,
        kill9: () => end('SIGKILL'),
        stop: () => end('SIGTERM'),
      });
    });
  });
}
