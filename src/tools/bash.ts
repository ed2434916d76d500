// The Bash tool: runs a command in the run's sandbox (tools/command-launch.ts) in its own process
// group, streams its output as progress, and on timeout or cancellation stops the whole group,
// grandchildren included. Groups still alive when warren exits are killed then
// (core/process-group.ts); a sandboxed command's own PID namespace ends with it.
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { releaseGroup, signalGroup, stopGroup, trackGroup } from '../core/process-group.js';
import { defineTool, type ToolContext, type ToolOutput } from '../core/tool.js';
import { launchCommand } from './command-launch.js';
import { checkReadOnlyCommand, isReadOnlyCommand } from './read-only-command.js';

const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
const MAX_OUTPUT_CHARS = 30_000;
/** Between SIGTERM and SIGKILL: time for a command to clean up after itself. */
const KILL_GRACE_MS = 2_000;
/** After bash exits, how long its output may stay open before background jobs are stopped. */
const PIPE_GRACE_MS = 250;

export const bashInputSchema = z.object({
  command: z.string().min(1).describe('The command to run, as you would type it in bash.'),
  timeout: z
    .number()
    .int()
    .positive()
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Milliseconds after which the command is stopped (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`,
    ),
});

export type BashInput = z.output<typeof bashInputSchema>;

export const BASH_USAGE = [
  '- The command runs with `bash -c` in the working directory; each call starts a fresh shell, so `cd` and variables do not carry over to the next call. Quote paths that contain spaces.',
  `- It is stopped after ${DEFAULT_TIMEOUT_MS / 1000} s unless you pass timeout (up to ${MAX_TIMEOUT_MS / 1000} s).`,
  `- stdout and stderr come back together. Beyond ${MAX_OUTPUT_CHARS} characters the middle of the output is left out.`,
  '- A non-zero exit status makes the call an error; the result shows the exit code and the output.',
  '- Prefer the dedicated tools: Glob to find files, Grep to search contents, Read to read files, Edit and Write to change them.',
  '- Chain dependent commands with `&&`. Processes a command starts in the background (`cmd &`) are stopped when the command ends; all are stopped when the session ends.',
  '- Commands run in a sandbox: they may write only the working directory and the allowed folders (never .git/config, .git/hooks, .warren and other tool configuration), /tmp is private to each command, there is no network unless the user allowed it, and API keys are not in the environment. A command judged read-only may write nothing but /tmp.',
];

export const bashTool = defineTool({
  name: 'Bash',
  description: ['Runs a bash command and returns its output.', '', ...BASH_USAGE].join('\n'),
  inputSchema: bashInputSchema,
  isReadOnly: (input, scope) => isReadOnlyCommand(input.command, scope),
  notReadOnlyReason: (input, scope) => {
    const verdict = checkReadOnlyCommand(input.command, scope);
    return verdict.readOnly ? undefined : verdict.reason;
  },
  isConcurrencySafe: false,
  // The command's own timeout ends it first; this only bounds a call that fails to stop.
  timeoutMs: MAX_TIMEOUT_MS + 2 * KILL_GRACE_MS + 5_000,
  permissionSubject: (input) => input.command,
  call: (input, ctx) => runCommand(input, ctx, { readOnly: isReadOnlyCommand(input.command, ctx) }),
});

/** Bash for read-only agents: runs only commands `checkReadOnlyCommand` accepts. */
export const readOnlyBashTool = defineTool({
  name: 'Bash',
  description: [
    'Runs a read-only bash command and returns its output.',
    '',
    '- Only commands that change nothing and read only inside the allowed directories are allowed: ls, cat, head, tail, wc, grep, rg, find (without -exec or -delete), git status/log/diff/show/blame, and similar, joined with pipes or &&. Refused: output redirection to files, command substitution, $VARIABLES, braces, ~, unknown programs, environment readers (env, printenv), paths or symlinks leading outside, and link-following walks (grep -R, find -L) over trees with links leading outside. Quote literal braces and dollar signs.',
    ...BASH_USAGE,
  ].join('\n'),
  inputSchema: bashInputSchema,
  isReadOnly: true,
  isConcurrencySafe: true,
  timeoutMs: bashTool.timeoutMs,
  permissionSubject: (input) => input.command,
  async call(input, ctx) {
    const verdict = checkReadOnlyCommand(input.command, ctx);
    if (!verdict.readOnly) {
      return {
        output: `Refused: this agent may only run read-only commands, and this one is not: ${verdict.reason}. Use Read, Glob or Grep, or a read-only command inside the allowed directories; a command like this one needs an agent with the full Bash tool and permission to run it.`,
        isError: true,
      };
    }
    return runCommand(input, ctx, { readOnly: true });
  },
});

type Ending =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'spawn-error'; error: Error };

async function runCommand(
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
