// A Bash command run (bash.ts has the tool): in the run's sandbox (tools/command-launch.ts) in its
// own process group, its output streamed as progress, and on timeout or cancellation the whole
// group stopped, grandchildren included. Groups still alive when warren exits are killed then
// (core/process-group.ts); a sandboxed command's own PID namespace ends with it.
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { releaseGroup, signalGroup, stopGroup, trackGroup } from '../core/process-group.js';
import type { ToolContext, ToolOutput } from '../core/tool.js';
import { type BashInput, DEFAULT_TIMEOUT_MS, KILL_GRACE_MS, MAX_OUTPUT_CHARS } from './bash.js';
import { launchCommand } from './command-launch.js';

/** After bash exits, how long its output may stay open before background jobs are stopped. */
const PIPE_GRACE_MS = 250;

type Ending =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'spawn-error'; error: Error };

export async function runCommand(
  input: BashInput,
  ctx: ToolContext,
  { readOnly }: { readOnly: boolean },
): Promise<ToolOutput> {
  if (ctx.signal.aborted) {
    return { output: 'Command not run: the call was cancelled.', isError: true };
  }
  const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
  const launch = await launchCommand(ctx, { command: input.command, readOnly });
  if (ctx.signal.aborted) {
    return { output: 'Command not run: the call was cancelled.', isError: true };
  }
  const child = spawn(launch.file, launch.args, {
    cwd: ctx.cwd,
    env: launch.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) trackGroup(child.pid);
  const output = new HeadTailBuffer(MAX_OUTPUT_CHARS);
  const onData = (chunk: string) => {
    output.append(chunk);
    ctx.progress(chunk);
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);

  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const ended = new Promise<Ending>((resolve) => {
    child.once('exit', (code, signal) => resolve({ kind: 'exit', code, signal }));
    child.once('error', (error) => resolve({ kind: 'spawn-error', error }));
  });

  let stoppedBy: 'timeout' | 'cancel' | undefined;
  const stop = (reason: 'timeout' | 'cancel') => {
    if (stoppedBy !== undefined || child.pid === undefined) return;
    stoppedBy = reason;
    stopGroup(child.pid, KILL_GRACE_MS);
    // A command that ignores the stop must not keep warren running once nothing else does:
    // its group is killed on the way out (core/process-group.ts).
    child.unref();
    (child.stdout as Readable as Socket).unref();
    (child.stderr as Readable as Socket).unref();
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('cancel');
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  try {
    const ending = await ended;
    if (ending.kind === 'spawn-error') {
      return {
        output: `Could not start bash in ${ctx.cwd}: ${ending.error.message}`,
        isError: true,
      };
    }
    // Background jobs inherit the output pipes; if they keep them open, stop them too.
    let stoppedBackground = false;
    if (!(await settlesWithin(closed, PIPE_GRACE_MS)) && child.pid !== undefined) {
      stoppedBackground = stoppedBy === undefined;
      stopGroup(child.pid, KILL_GRACE_MS);
      if (!(await settlesWithin(closed, 2 * KILL_GRACE_MS))) {
        child.stdout.destroy();
        child.stderr.destroy();
      }
    }
    return describeEnding({ ending, stoppedBy, stoppedBackground, timeoutMs, text: output.text() });
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    // A background job with its output redirected may live on; it stays tracked until exit.
    if (child.pid !== undefined && !signalGroup(child.pid, 0)) releaseGroup(child.pid);
  }
}

interface EndingSummary {
  ending: Extract<Ending, { kind: 'exit' }>;
  stoppedBy: 'timeout' | 'cancel' | undefined;
  stoppedBackground: boolean;
  timeoutMs: number;
  text: string;
}

function describeEnding(summary: EndingSummary): ToolOutput {
  const text = summary.text.replace(/\n+$/, '');
  const notes: string[] = [];
  if (summary.stoppedBackground) {
    notes.push(
      'Background processes that kept the output open were stopped. To keep one running, redirect its output: `cmd > log 2>&1 &`.',
    );
  }
  const failure = failureOf(summary);
  if (failure !== undefined) notes.push(failure);
  const body = text === '' && failure === undefined ? '(no output)' : text;
  const output = [body, ...notes].filter((part) => part !== '').join('\n\n');
  return failure === undefined ? output : { output, isError: true };
}

function failureOf({ ending, stoppedBy, timeoutMs }: EndingSummary): string | undefined {
  if (stoppedBy === 'timeout') return `Command timed out after ${timeoutMs} ms and was stopped.`;
  if (stoppedBy === 'cancel') return 'Command was cancelled and stopped.';
  if (ending.signal !== null) return `Command was killed by ${ending.signal}.`;
  if (ending.code !== 0) return `Exit code ${ending.code}`;
  return undefined;
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  const timeout = new AbortController();
  const timedOut = delay(ms, false, { signal: timeout.signal }).catch(() => false);
  const settled = await Promise.race([promise.then(() => true), timedOut]);
  timeout.abort();
  return settled;
}

/** Keeps the first and last `limit / 2` characters of a stream, counting what falls between. */
class HeadTailBuffer {
  readonly #half: number;
  #head = '';
  #tail = '';
  #omitted = 0;

  constructor(limit: number) {
    this.#half = Math.floor(limit / 2);
  }

  append(chunk: string): void {
    let rest = chunk;
    if (this.#head.length < this.#half) {
      const room = this.#half - this.#head.length;
      this.#head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    this.#tail += rest;
    if (this.#tail.length > this.#half) {
      this.#omitted += this.#tail.length - this.#half;
      this.#tail = this.#tail.slice(-this.#half);
    }
  }

  text(): string {
    if (this.#omitted === 0) return this.#head + this.#tail;
    return `${this.#head}\n\n... [${this.#omitted} characters of output omitted] ...\n\n${this.#tail}`;
  }
}
