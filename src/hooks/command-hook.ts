// Runs one command hook: `sh -c <command>` in a process group of its own, the event's JSON on
// stdin, stdout and stderr read up to a cap. At its timeout, on cancel, and once it has exited,
// its whole group is stopped: nothing a hook starts outlives it.
import { releaseGroup, stopGroup, trackGroup } from '../core/process-group.js';
import type { CommandReply } from './hook-output.js';

/** Most bytes of stdout (and of stderr) read from a hook; the rest is thrown away. */
export const MAX_HOOK_OUTPUT_BYTES = 256 * 1024;
/** Between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the hook exits, how long its pipes may stay open (a background child holds them). */
const PIPE_GRACE_MS = 250;

export interface CommandHookRun {
  command: string;
  /** The event as JSON, written to the hook's stdin. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
}

/** What the hook did; `problem` when it did not run to an exit of its own. */
export type CommandHookResult =
  | ({ problem?: undefined; outputCut: boolean } & CommandReply)
  | { problem: string };

export function runCommandHook(run: CommandHookRun): Promise<CommandHookResult> {
  if (run.signal.aborted) return Promise.resolve({ problem: 'the run was cancelled' });
  return new Promise((resolve) => {
    // Taken on the first hook run: a start that runs none does not load node:child_process.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn('/bin/sh', ['-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);
    const stdout = new CappedText();
    const stderr = new CappedText();
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A hook that does not read its stdin closes the pipe early: EPIPE is not its failure.
    child.stdin.on('error', () => {});
    child.stdin.end(run.input);

    let stoppedBy: 'timeout' | 'cancel' | undefined;
    const stop = (why: 'timeout' | 'cancel') => {
      stoppedBy ??= why;
      if (pid !== undefined) stopGroup(pid, KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    const onAbort = () => stop('cancel');
    run.signal.addEventListener('abort', onAbort, { once: true });

    let exitCode: number | null = null;
    let settled = false;
    const finish = (result: CommandHookResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        // Whatever the hook left running in its group goes with it.
        stopGroup(pid, KILL_GRACE_MS);
        releaseGroup(pid);
      }
      resolve(result);
    };
    const report = () => {
      if (stoppedBy === 'timeout') {
        return finish({
          problem: `it did not finish within ${run.timeoutMs / 1000} s and was stopped`,
        });
      }
      if (stoppedBy === 'cancel') return finish({ problem: 'the run was cancelled' });
      if (exitCode === null) return finish({ problem: 'it was killed by a signal' });
      finish({
        exitCode,
        stdout: stdout.text(),
        stderr: stderr.text(),
        outputCut: stdout.cut || stderr.cut,
      });
    };
    child.once('error', (error) =>
      finish({ problem: `it could not be started: ${error.message}` }),
    );
    child.once('exit', (code) => {
      exitCode = code;
      // Output still in the pipes is read to the end, unless something else holds them open.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        report();
      }, PIPE_GRACE_MS).unref();
    });
    child.once('close', report);
  });
}

/** Collects a stream's bytes up to the cap. */
class CappedText {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  cut = false;

  add(chunk: Buffer): void {
    const room = MAX_HOOK_OUTPUT_BYTES - this.#bytes;
    if (chunk.length > room) this.cut = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(kept);
    this.#bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
