import { sharedFanOut } from '../core/abort-fan-out.js';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import { lazy } from '../core/lazy.js';
import {
  type AssistantMessage,
  type Message,
  type ToolCallPart,
  type ToolResultPart,
  toolCallsOf,
} from '../core/messages.js';
import { RUN_KNOBS } from '../core/run-knobs.js';
import { directSteps } from '../core/step-runner.js';
import { FatalToolError, type Tool } from '../core/tool.js';
import { describeModelError } from '../model/describe-model-error.js';
import { FileStateCache } from '../tools/file-state.js';
import type { AgentLoopParams } from './agent-loop-options.js';
import { callModel } from './call-model.js';
import type { ToolCallEnvironment } from './execute-tool-call.js';
import { awaitInbox, deliverInbox } from './inbox-steps.js';
import { type LifecycleFacts, promptHooks, stopHooks } from './lifecycle-hooks.js';
import { LoopStream } from './loop-stream.js';
import { lastReplyText, resultOf, statusOf } from './run-result.js';
import { append, type EventSink, event, modelOf, type RunState, startRun } from './run-state.js';
import { INTERRUPTED, limitReached, NO_GRACE, type Stop, stopFromError } from './run-stops.js';
import { runToolCalls } from './run-tool-calls.js';
import { RunView } from './run-view.js';
import { either } from './stop-signals.js';

export type { AgentLoopOptions, AgentLoopParams } from './agent-loop-options.js';

/** How long a grace turn may take; after the time budget, the agent's wind-down window also bounds it. */
const GRACE_TIME_MS = 60_000;
const GRACE_MAX_OUTPUT_TOKENS = 2048;

const INTERRUPTED_NOTE = 'The user interrupted your turn here.';

/**
 * Runs one agent to the end, yielding every event as it happens; returns the result (also
 * yielded last as the `result` event). Never throws for a run that started: failures end the
 * run with an error result. Throws only if the model promise rejects. A consumer that stops
 * reading (`break`) stops the run.
 */
export function agentLoop(params: AgentLoopParams): AsyncGenerator<AgentEvent, RunResult> {
  return new LoopStream(params.options.signal, (signal, sink) =>
    runAgent({ prompt: params.prompt, options: { ...params.options, signal } }, sink),
  );
}

/**
 * The loop itself: runs one agent to the end, passing every event to `sink` the moment it is
 * made; resolves to its result (the last event). A sub-agent runs here with its parent's sink,
 * so a child's event costs its tree one call per level, not a generator hop per step.
 */
export async function runAgent(
  { prompt, options }: AgentLoopParams,
  sink: EventSink,
): Promise<RunResult> {
  const run = startRun(options, await options.model, sink);
  const { tools, cwd } = run;
  event(run, {
    type: 'run_start',
    agentType: run.agentType,
    description: run.description,
    model: run.modelName,
    tools: tools.map((tool) => tool.name),
    cwd,
    path: run.path,
    ...(options.parentToolCallId === undefined
      ? {}
      : { parentToolCallId: options.parentToolCallId }),
  });
  if (run.messages.length === 0 && options.systemPrompt) {
    append(run, { role: 'system', content: options.systemPrompt });
  }

  const environment: ToolCallEnvironment = {
    tools: toolsByName(tools),
    withheld: withheldTools(tools, run.shownTools),
    permissions: options.permissions,
    hooks: options.hooks,
    context: {
      cwd,
      allowedDirs: options.allowedDirs ?? [cwd],
      ...(options.commandSandbox && { sandbox: options.commandSandbox }),
      fileState: options.fileState ?? new FileStateCache(),
      agent: {
        ...run.ref,
        agentType: run.agentType,
        path: run.path,
        background: options.background === true,
      },
    },
    // What the run's tools that start agents see of it: made when one is first called, so an
    // agent that starts none (most children) never makes it. A child inherits the agent's own
    // tools, never the StructuredOutput tool that is its alone; a forked child is shown what
    // this agent's model is shown.
    run: lazy(() => new RunView(run, options.tools ?? [], run.shownTools)),
    // The signals' shared fan-outs: without a deadline `signal` and `cancel` are one signal, which
    // the model call's watchdog follows too, so an agent has one listener and one Set on it.
    signal: sharedFanOut(run.signal),
    cancel: sharedFanOut(run.cancel.signal),
    ended: run.deadline && sharedFanOut(run.deadline.ended),
    timeoutMs: options.toolTimeoutMs ?? RUN_KNOBS.toolTimeoutMs,
    record: options.onEvent ?? ignore,
    steps: options.steps ?? directSteps,
  };

  try {
    const admitted = await admitPrompt(run, prompt);
    if (admitted !== undefined) {
      const files = options.promptFiles;
      append(run, { role: 'user', content: admitted, ...(files?.length ? { files } : {}) });
      await runToTheEnd(run, environment);
    }
  } finally {
    run.deadline?.clear();
    run.cancel.end();
    options.inbox?.close();
  }

  const result = resultOf(run);
  event(run, { type: 'result', ...result });
  return result;
}

/**
 * The agent's tools by name. A frozen list is shared by many agents (a parent's thousand children
 * of one definition, agents/spawn-tools.ts) and cannot change: its table is made once.
 */
function toolsByName(tools: readonly Tool[]): ReadonlyMap<string, Tool> {
  if (!Object.isFrozen(tools)) return new Map(tools.map((tool) => [tool.name, tool]));
  let byName = sharedTables.get(tools);
  if (!byName) {
    byName = new Map(tools.map((tool) => [tool.name, tool]));
    sharedTables.set(tools, byName);
  }
  return byName;
}

const sharedTables = new WeakMap<readonly Tool[], ReadonlyMap<string, Tool>>();

/** Tools the model is shown but the agent may not call (a forked agent sees its parent's). */
function withheldTools(
  tools: readonly Tool[],
  shownTools: readonly Tool[],
): ReadonlySet<string> | undefined {
  if (shownTools === tools) return undefined;
  const withheld = shownTools
    .map((tool) => tool.name)
    .filter((name) => !tools.some((tool) => tool.name === name));
  return withheld.length > 0 ? new Set(withheld) : undefined;
}

// The prompt as its hooks admit it (with their context), or undefined when one refused it.
async function admitPrompt(run: RunState, prompt: string): Promise<string | undefined> {
  if (!run.options.hooks) return prompt;
  const admitted = await promptHooks(run.options.hooks, lifecycleFacts(run), prompt);
  for (const message of admitted.warnings) event(run, { type: 'warning', message });
  run.failure = admitted.refused;
  return admitted.prompt;
}

// Turns until the agent ends for good: each time it would end, its output schema and its stop
// hooks may send it back to work.
async function runToTheEnd(run: RunState, env: ToolCallEnvironment): Promise<void> {
  for (;;) {
    await runTurns(run, env);
    const { stop } = run;
    if (
      stop &&
      !NO_GRACE.has(stop.status) &&
      !stop.paused &&
      (run.options.graceTurn ?? RUN_KNOBS.graceTurn)
    ) {
      await graceTurn(run, stop);
    }
    const goOn = await finishRun(run);
    if (goOn === undefined) return;
    append(run, { role: 'user', content: goOn });
  }
}

// The agent would end: hold it to its output schema, then ask its stop hooks. Returns the
// instruction it goes on with, if any.
async function finishRun(run: RunState): Promise<string | undefined> {
  if (run.output && statusOf(run) === 'completed') {
    const reminder = run.output.reminder();
    if (reminder !== undefined) return reminder;
    run.failure = run.output.failure;
  }
  const status = statusOf(run);
  if (!run.options.hooks || status === 'cancelled') return undefined;
  const stopped = await stopHooks(run.options.hooks, lifecycleFacts(run), {
    lastAssistantMessage: lastReplyText(run),
    status,
    error: run.failure ?? run.stop?.reason,
    continuations: run.stopHookContinuations,
  });
  for (const message of stopped.warnings) event(run, { type: 'warning', message });
  run.handoff = stopped.handoff;
  if (stopped.fatal !== undefined) {
    run.fatal = true;
    run.failure = stopped.fatal;
  }
  if (stopped.goOn !== undefined) run.stopHookContinuations++;
  return stopped.goOn;
}

function lifecycleFacts({ ref, agentType, path, cwd, cancel }: RunState): LifecycleFacts {
  return { agent: { ...ref, agentType, path }, cwd, signal: cancel.signal };
}

// Turns until the model stops with nothing left to wait for, or a limit stops it.
async function runTurns(run: RunState, env: ToolCallEnvironment): Promise<void> {
  const { inbox } = run.options;
  const join = (message: Message) => append(run, message);
  for (run.stop = limitReached(run); !run.stop; run.stop = limitReached(run)) {
    deliverInbox(inbox, join);
    const turnOver = await takeTurn(run, env);
    if (run.stop || run.failure) return;
    const waiting = run.options.waitForBackground !== false;
    if (turnOver && !(await awaitInbox(waiting ? inbox : undefined, run.hardStop))) {
      if (run.turn.interrupt?.aborted) run.stop = INTERRUPTED;
      return;
    }
  }
}

// One model call and the tools it asked for. True when the model ended its turn (or its
// structured output is in), or the turn was interrupted; a failure ends the run.
async function takeTurn(run: RunState, env: ToolCallEnvironment): Promise<boolean> {
  beginTurn(run, env);
  const interrupted = () => run.turn.interrupt?.aborted === true && !run.cancel.signal.aborted;
  try {
    const { message } = await callModel(run, { toolChoice: 'auto', signal: run.turn.signal });
    append(run, message);
    const calls = toolCallsOf(message);
    if (calls.length > 0) {
      run.toolCalls += calls.length;
      const batch = await runToolCalls(calls, env, run.sink);
      append(run, { role: 'tool', content: batch.results });
      if (batch.fatal && !interrupted()) throw batch.fatal;
      watchProgress(run, calls, batch.results);
    }
    event(run, { type: 'turn_end', turn: run.numTurns, message });
    if (!interrupted()) return calls.length === 0 || run.output?.settled === true;
  } catch (error) {
    if (!interrupted()) {
      run.stop = stopFromError(run, error);
      if (run.stop) return true;
      run.fatal = FatalToolError.isInstance(error);
      run.failure = describeModelError(error, modelOf(run)) ?? messageOf(error);
      return true;
    }
  }
  append(run, { role: 'user', content: INTERRUPTED_NOTE });
  return true;
}

/** After an interrupt, the next turn follows the interrupt source's new signal. */
function beginTurn(run: RunState, env: ToolCallEnvironment): void {
  const interrupt = run.options.interrupt?.signal;
  if (interrupt === run.turn.interrupt) return;
  const cancel = either(run.cancel.signal, interrupt);
  run.turn = { interrupt, cancel, signal: either(run.signal, interrupt) };
  env.signal = sharedFanOut(run.turn.signal);
  env.cancel = sharedFanOut(cancel);
}

// One more model call without tools, so an agent cut off by a limit can say what it has.
async function graceTurn(run: RunState, stop: Stop): Promise<void> {
  // What background work reported by now goes into the final report.
  deliverInbox(run.options.inbox, (message) => append(run, message));
  if (run.deadline?.ended.aborted) {
    stop.reason += ' The time to wind down ran out before the final report.';
    return;
  }
  append(run, {
    role: 'user',
    content:
      `${stop.reason} You cannot call tools any more. Reply now with your final answer: ` +
      'what you found or did, and what is left undone.',
  });
  try {
    const { message } = await callModel(run, {
      toolChoice: 'none',
      signal: AbortSignal.any([
        run.cancel.signal,
        AbortSignal.timeout(GRACE_TIME_MS),
        ...(run.deadline ? [run.deadline.ended] : []),
      ]),
      maxOutputTokens: GRACE_MAX_OUTPUT_TOKENS,
    });
    // A model may still try a call; with no turn left to answer it, only the text is kept.
    const textOnly: AssistantMessage = {
      role: 'assistant',
      content: message.content.filter((part) => part.type === 'text'),
    };
    append(run, textOnly);
    event(run, { type: 'turn_end', turn: run.numTurns, message: textOnly });
  } catch (error) {
    stop.reason += run.deadline?.ended.aborted
      ? ' The time to wind down ran out before the final report.'
      : ` The final report could not be produced: ${messageOf(error)}`;
  }
}

function ignore(): void {}

/** The loop's step after a batch: the notice goes into the agent's context, a stop ends it. */
function watchProgress(
  run: RunState,
  calls: readonly ToolCallPart[],
  results: readonly ToolResultPart[],
): void {
  const verdict = run.progress.observe(calls, results);
  if (verdict.kind === 'notice') append(run, { role: 'user', content: verdict.text });
  if (verdict.kind === 'stop') run.stop = verdict.stop;
}
