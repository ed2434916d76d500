// Runs one child's loop to its end, foreground or background alike: passes its events on, keeps
// its entry in the run's agent directory, and stops it as `stalled` when it stops making progress.

import type { AgentEvent, RunResult } from '../core/events.js';
import type { TraceContextSource } from '../core/trace-context.js';
import { runAgent } from '../loop/agent-loop.js';
import { StallWatchdog, type Stopper } from './stall-watchdog.js';
import type { SubagentOptions } from './subagent-context.js';
import type { SubagentRuntime } from './subagent-runtime.js';

/** What driving a child needs of it (a ChildRun, child-run.ts). */
export interface DrivenChild {
  prompt: string;
  options: SubagentOptions;
  name?: string;
  background: boolean;
  taskId?: string;
}

export interface ChildEnding {
  result: RunResult;
  /** Text the child was streaming when it was stopped, not yet in any message. */
  partial: string;
}

/** Where a child's events go: its parent's stream (foreground) or the run's (background). */
export type ChildSink = (event: AgentEvent) => void;

/**
 * @param stopper the controller behind the child's signal when it has one of its own (a
 *   foreground child's): its stall watchdog aborts that, rather than a signal made for it.
 */
export async function driveChild(
  runtime: SubagentRuntime,
  child: DrivenChild,
  sink: ChildSink,
  stopper?: Stopper,
): Promise<ChildEnding> {
  const { options } = child;
  const { agentId } = options;
  const entry = runtime.directory.started(child.options, child);
  const watchdog = new StallWatchdog(
    agentId,
    runtime.stallTimeoutMs,
    () => entry.waiting,
    child.options.signal,
    stopper,
  );
  const { signal } = watchdog;
  let partial = '';
  let result: RunResult | undefined;
  // An ACP child's events are made by its client, outside any loop: recorded here, as a loop's are.
  const record = child.options.acp ? child.options.onEvent : undefined;
  // Every event of the child's tree passes here on its way to its parent.
  const pass = (event: AgentEvent) => {
    record?.(event);
    const now = Date.now();
    watchdog.observe(event, now);
    sink(event);
    if (event.agentId !== agentId) return;
    entry.lastActivityAt = now;
    if (event.type === 'message_delta') partial += event.text;
    else if (event.type === 'message_start' || event.type === 'message_end') partial = '';
    else if (event.type === 'result') result = event;
  };
  try {
    if (options.acp) {
      for await (const event of acpChildRun(child, options.acp, signal, runtime.traceContext)) {
        pass(event);
      }
    } else {
      // Its options are its own (derived for this run): the watchdog's signal goes in place, not
      // in a copy of some thirty fields, which the child would hold while it runs.
      if (options.signal !== signal) options.signal = signal;
      await runAgent({ prompt: child.prompt, options }, pass);
    }
  } finally {
    watchdog.stop();
  }
  // The loop always ends with its result event; without one, it threw before starting.
  if (!result) throw new Error(`agent ${agentId} ended without a result`);
  runtime.directory.ended(result);
  return { result, partial };
}

/** The ACP SDK is loaded only by a run that starts an ACP child. */
async function* acpChildRun(
  child: DrivenChild,
  acp: NonNullable<SubagentOptions['acp']>,
  signal: AbortSignal,
  traceContext: TraceContextSource | undefined,
): AsyncGenerator<AgentEvent, void> {
  const { options } = child;
  const { runAcpChild } = await import('../acp/acp-child.js');
  yield* runAcpChild({
    prompt: child.prompt,
    acp,
    agentId: options.agentId,
    parentId: options.parentId,
    depth: options.depth,
    agentType: options.agentType,
    description: options.description ?? '',
    agentPath: options.agentPath,
    ...(options.parentToolCallId ? { parentToolCallId: options.parentToolCallId } : {}),
    background: child.background,
    cwd: options.cwd,
    allowedDirs: options.allowedDirs,
    permissions: options.permissions,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    traceContext,
    signal,
  });
}
