// The agent loop: ask the model, run the tools it asked for, repeat until it stops or a limit
// ends it. Sub-agents are tools that call agentLoop() again; nothing here knows about them.
import { randomUUID } from 'node:crypto';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { AgentStop } from '../core/agent-stop.js';
import { Budget, type BudgetKind, describeBudget } from '../core/budget.js';
import type {
  AgentEvent,
  AgentRef,
  AgentStatus,
  ResultSubtype,
  RunResult,
} from '../core/events.js';
import { inheritedOptions } from '../core/inherited-options.js';
import { type AssistantMessage, type Message, textOf, toolCallsOf } from '../core/messages.js';
import type { RunContext } from '../core/run-context.js';
import { FatalToolError, type Tool } from '../core/tool.js';
import { addUsage, budgetTokens, emptyUsage, type Usage } from '../core/usage.js';
import { type ModelTurn, modelTurn } from '../model/model-turn.js';
import { costOf, type ModelPrice, modelName, priceOf } from '../model/pricing.js';
import { describeModelError } from '../model/resolve-model.js';
import { DEFAULT_RETRY, messageOf } from '../model/retry-policy.js';
import { FileStateCache } from '../tools/file-state.js';
import type { AgentLoopOptions, AgentLoopParams } from './agent-loop-options.js';
import type { ToolCallEnvironment } from './execute-tool-call.js';
import { runToolCalls } from './run-tool-calls.js';
import { AbortFanOut, type Deadline, either, followSignal, startDeadline } from './stop-signals.js';

export type { AgentLoopOptions, AgentLoopParams } from './agent-loop-options.js';

const DEFAULT_TOOL_TIMEOUT_MS = 15 * 60_000;
/** How long a grace turn may take once the time budget is gone. */
const GRACE_TIME_MS = 60_000;
/**
 * How long running tools may take to wind down after the time budget is gone: a sub-agent
 * then has its own grace turn to finish, and its report is worth waiting for.
 */
const WIND_DOWN_MS = 2 * GRACE_TIME_MS;
const GRACE_MAX_OUTPUT_TOKENS = 2048;

type Stop = { status: Exclude<AgentStatus, 'completed'>; reason: string };

/** The signals of the current turn; rebuilt only after an interrupt. */
interface TurnSignals {
  /** The interrupt signal this turn follows, if the agent can be interrupted. */
  readonly interrupt: AbortSignal | undefined;
  /** Aborts on cancel or interrupt: what the turn's children follow. */
  readonly cancel: AbortSignal;
  /** Aborts on cancel, interrupt or the deadline: what the model call and tools stop on. */
  readonly signal: AbortSignal;
}

const INTERRUPTED: Stop = { status: 'cancelled', reason: 'The turn was interrupted.' };
const INTERRUPTED_NOTE = 'The user interrupted your turn here.';

/** Everything one run knows and changes, in one place; the steps below take it explicitly. */
interface RunState {
  readonly ref: AgentRef;
  readonly path: string;
  /** Sent with every model request, so a proxy or gateway can tell the agents apart. */
  readonly headers: Record<string, string>;
  readonly agentType: string;
  readonly description: string;
  readonly options: AgentLoopOptions;
  readonly model: LanguageModelV4;
  readonly modelName: string;
  readonly price: ModelPrice | undefined;
  readonly budget: Budget;
  /** Aborts when the caller cancels; what children follow. */
  readonly cancel: { signal: AbortSignal; end(): void };
  readonly deadline: Deadline | undefined;
  /** Aborts on cancel or at the deadline: what model calls and tools stop on. */
  readonly signal: AbortSignal;
  /** Aborts on cancel or once the deadline's wind-down is over: when waiting for tools stops. */
  readonly hardStop: AbortSignal;
  turn: TurnSignals;
  readonly messages: Message[];
  /** Where this run's messages start; a resumed conversation's old replies are not its result. */
  readonly firstOwnMessage: number;
  readonly usage: Usage;
  readonly started: number;
  costUsd: number | null;
  numTurns: number;
  toolCalls: number;
  stop?: Stop;
  failure?: string;
  fatal: boolean;
}

/**
 * Runs one agent to the end, yielding every event as it happens; returns the result (also
 * yielded last as the `result` event). Never throws for a run that started: failures end the
 * run with an error result. Throws only if the model promise rejects.
 */
export async function* agentLoop({
  prompt,
  options,
}: AgentLoopParams): AsyncGenerator<AgentEvent, RunResult> {
  const run = startRun(options, await options.model);
  const cwd = options.cwd ?? process.cwd();
  const tools = options.tools ?? [];
  yield event(run, {
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
    yield append(run, { role: 'system', content: options.systemPrompt });
  }
  yield append(run, { role: 'user', content: prompt });

  const environment: ToolCallEnvironment = {
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    permissions: options.permissions,
    context: {
      cwd,
      allowedDirs: options.allowedDirs ?? [cwd],
      fileState: options.fileState ?? new FileStateCache(),
      agent: {
        ...run.ref,
        agentType: run.agentType,
        path: run.path,
        background: options.background === true,
      },
    },
    run: runContext(run, tools),
    signal: new AbortFanOut(run.signal),
    hardStop: new AbortFanOut(run.hardStop),
    timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    record: options.onEvent ?? ignore,
    passOn: () => passOn(run),
  };

  // A consumer may stop early (`break` out of for-await): what the run started stops with it.
  try {
    yield* runTurns(run, environment);
    if (run.stop && !NO_GRACE.has(run.stop.status) && options.graceTurn !== false) {
      yield* graceTurn(run, run.stop);
    }
  } finally {
    run.deadline?.clear();
    run.cancel.end();
    options.inbox?.close();
  }

  const result = resultOf(run);
  yield event(run, { type: 'result', ...result });
  return result;
}

function startRun(options: AgentLoopOptions, model: LanguageModelV4): RunState {
  const name = modelName(model);
  const price = priceOf(name, options.prices);
  const budget =
    options.budget ??
    new Budget({
      timeMs: options.timeBudgetMs,
      tokens: options.tokenBudget,
      costUsd: options.costBudgetUsd,
    });
  // Two ways a run is stopped: the caller cancels it (options.signal), or the time budget ends
  // (the deadline). Model calls and tools stop on either; children follow only the first, and
  // end on the shared deadline by their own timer, so they still get their grace turn.
  // Each agent has its own cancel signal, tied to its caller's by one listener: a signal shared
  // by a thousand sub-agents' requests would make every listener added to it cost O(n).
  const cancel = followSignal(options.signal);
  const deadline = startDeadline(budget.effectiveDeadline(), WIND_DOWN_MS);
  const messages = [...(options.messages ?? [])];
  const signal = either(cancel.signal, deadline?.expired);
  const ref: AgentRef = {
    agentId: options.agentId ?? `agent_${randomUUID().slice(0, 8)}`,
    parentId: options.parentId ?? null,
    depth: options.depth ?? 0,
  };
  const path = options.agentPath ?? 'main';
  return {
    ref,
    path,
    headers: {
      'x-warren-agent-id': ref.agentId,
      ...(ref.parentId === null ? {} : { 'x-warren-parent-agent-id': ref.parentId }),
      'x-warren-agent-path': path,
    },
    agentType: options.agentType ?? 'main',
    description: options.description ?? '',
    options,
    model,
    modelName: name,
    price,
    budget,
    cancel,
    deadline,
    signal,
    hardStop: either(cancel.signal, deadline?.over),
    turn: { interrupt: undefined, cancel: cancel.signal, signal },
    messages,
    firstOwnMessage: messages.length,
    usage: emptyUsage(),
    started: Date.now(),
    costUsd: price ? 0 : null,
    numTurns: 0,
    toolCalls: 0,
    fatal: false,
  };
}

/** What the run's tools that start agents see of it. */
function runContext(run: RunState, tools: readonly Tool[]): RunContext {
  return {
    agentPath: run.path,
    inherited: inheritedOptions(run.options),
    get cancelSignal() {
      return run.turn.cancel;
    },
    model: run.model,
    tools,
    budget: run.budget,
    permissions: run.options.permissions,
    messages: run.messages,
    get turnsLeft() {
      return (run.options.maxTurns ?? Infinity) - run.numTurns;
    },
  };
}

// Turns until the model stops with nothing left to wait for, or a limit stops it.
async function* runTurns(run: RunState, env: ToolCallEnvironment): AsyncGenerator<AgentEvent> {
  for (run.stop = limitReached(run); !run.stop; run.stop = limitReached(run)) {
    for (const delivered of deliver(run)) yield delivered;
    const turnOver = yield* takeTurn(run, env);
    if (run.stop || run.failure) return;
    if (turnOver && !(yield* awaitInbox(run))) {
      if (run.turn.interrupt?.aborted) run.stop = INTERRUPTED;
      return;
    }
  }
}

// One model call and the tools it asked for. True when the model ended its turn, or the turn
// was interrupted; a failure ends the run as a stop or a failure.
async function* takeTurn(
  run: RunState,
  env: ToolCallEnvironment,
): AsyncGenerator<AgentEvent, boolean> {
  beginTurn(run, env);
  const interrupted = () => run.turn.interrupt?.aborted === true && !run.cancel.signal.aborted;
  try {
    const { message } = yield* callModel(run, { toolChoice: 'auto', signal: run.turn.signal });
    yield append(run, message);
    const calls = toolCallsOf(message);
    if (calls.length > 0) {
      run.toolCalls += calls.length;
      const batch = yield* runToolCalls(calls, env);
      yield append(run, { role: 'tool', content: batch.results });
      if (batch.fatal && !interrupted()) throw batch.fatal;
    }
    yield event(run, { type: 'turn_end', turn: run.numTurns, message });
    if (!interrupted()) return calls.length === 0;
  } catch (error) {
    if (!interrupted()) {
      run.stop = stopFromError(run, error);
      if (run.stop) return true;
      run.fatal = FatalToolError.isInstance(error);
      run.failure =
        describeModelError(error, { spec: run.modelName, baseUrl: run.options.baseUrl }) ??
        messageOf(error);
      return true;
    }
  }
  yield append(run, { role: 'user', content: INTERRUPTED_NOTE });
  return true;
}

/** After an interrupt, the next turn follows the interrupt source's new signal. */
function beginTurn(run: RunState, env: ToolCallEnvironment): void {
  const interrupt = run.options.interrupt?.signal;
  if (interrupt === run.turn.interrupt) return;
  const cancel = either(run.cancel.signal, interrupt);
  run.turn = { interrupt, cancel, signal: either(run.signal, interrupt) };
  env.signal = new AbortFanOut(run.turn.signal);
  env.hardStop = new AbortFanOut(either(run.hardStop, interrupt));
}

/**
 * What arrived from background work joins the conversation before the model is asked again.
 * Returns the events to yield (a plain list: no generator hop on every turn).
 */
function deliver(run: RunState): readonly AgentEvent[] {
  const passed = passOn(run);
  const delivery = run.options.inbox?.take();
  if (!delivery) return passed;
  const message = append(run, delivery.message);
  // In the conversation and recorded (onEvent): a restart neither loses nor repeats it.
  delivery.delivered();
  return [...passed, message];
}

// The model ended its turn: while background tasks the agent started run, wait for what they
// send. True to go on (something arrived, or a limit needs checking); false to end.
async function* awaitInbox(run: RunState): AsyncGenerator<AgentEvent, boolean> {
  const { inbox, waitForBackground } = run.options;
  if (!inbox || waitForBackground === false) return false;
  for (;;) {
    // Children still wind down (grace turns) after the deadline; waiting ends a while later.
    const state = await inbox.wait(run.hardStop);
    for (const passed of inbox.passOn()) yield passed;
    if (state === 'idle') return false;
    if (state !== 'events') return true;
  }
}

function passOn(run: RunState): readonly AgentEvent[] {
  return run.options.inbox?.passOn() ?? NOTHING;
}

// One more model call without tools, so an agent cut off by a limit can say what it has.
async function* graceTurn(run: RunState, stop: Stop): AsyncGenerator<AgentEvent> {
  // What background work reported by now goes into the final report.
  for (const delivered of deliver(run)) yield delivered;
  yield append(run, {
    role: 'user',
    content:
      `${stop.reason} You cannot call tools any more. Reply now with your final answer: ` +
      'what you found or did, and what is left undone.',
  });
  try {
    const { message } = yield* callModel(run, {
      toolChoice: 'none',
      signal: either(run.cancel.signal, AbortSignal.timeout(GRACE_TIME_MS)),
      maxOutputTokens: GRACE_MAX_OUTPUT_TOKENS,
    });
    // A model may still try a call; with no turn left to answer it, only the text is kept.
    const textOnly: AssistantMessage = {
      role: 'assistant',
      content: message.content.filter((part) => part.type === 'text'),
    };
    yield append(run, textOnly);
    yield event(run, { type: 'turn_end', turn: run.numTurns, message: textOnly });
  } catch (error) {
    stop.reason += ` The final report could not be produced: ${messageOf(error)}`;
  }
}

// One model call, counted against the turn cap and the budget.
async function* callModel(
  run: RunState,
  call: { toolChoice: 'auto' | 'none'; signal: AbortSignal; maxOutputTokens?: number },
): AsyncGenerator<AgentEvent, ModelTurn> {
  const { options } = run;
  run.numTurns++;
  const started = Date.now();
  yield event(run, { type: 'turn_start', turn: run.numTurns });
  const turns = modelTurn({
    model: run.model,
    messages: run.messages,
    tools: options.tools ?? [],
    toolChoice: call.toolChoice,
    stream: options.stream ?? true,
    signal: call.signal,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    maxOutputTokens: call.maxOutputTokens ?? options.maxOutputTokens,
    providerOptions: options.providerOptions,
    headers: run.headers,
  });
  let step = await turns.next();
  while (!step.done) {
    yield event(run, step.value);
    for (const passed of passOn(run)) yield passed;
    step = await turns.next();
  }
  const turn = step.value;
  addUsage(run.usage, turn.usage);
  const turnCost = costOf(turn.usage, run.price);
  if (run.costUsd !== null && turnCost !== null) run.costUsd += turnCost;
  run.budget.spend(budgetTokens(turn.usage), turnCost);
  yield event(run, {
    type: 'usage',
    turn: run.numTurns,
    usage: turn.usage,
    costUsd: turnCost,
    durationMs: Date.now() - started,
    finishReason: turn.finishReason,
  });
  return turn;
}

/** Why the run must stop now, if it must; checked before every model call. */
function limitReached(run: RunState): Stop | undefined {
  if (run.cancel.signal.aborted) return cancelled(run);
  const kind = run.deadline?.expired.aborted ? 'time' : run.budget.exhausted();
  if (kind) return budgetStop(kind);
  const { maxTurns } = run.options;
  if (maxTurns !== undefined && run.numTurns >= maxTurns) {
    return { status: 'max_turns', reason: `Reached the maximum of ${maxTurns} turns.` };
  }
  return undefined;
}

/** A thrown error that is really a limit (cancel, time budget) becomes a stop, not a failure. */
function stopFromError(run: RunState, error: unknown): Stop | undefined {
  if (run.cancel.signal.aborted) return cancelled(run);
  if (run.deadline?.expired.aborted) return budgetStop('time');
  const kind = run.budget.exhausted();
  if (kind && error instanceof Error && error.name === 'AbortError') return budgetStop(kind);
  return undefined;
}

/** A stop aimed at this agent (TaskStop, the stall watchdog) says why; any other is a cancel. */
function cancelled(run: RunState): Stop {
  const reason: unknown = run.cancel.signal.reason;
  if (AgentStop.isInstance(reason) && reason.agentId === run.ref.agentId) {
    return { status: reason.status, reason: reason.message };
  }
  return { status: 'cancelled', reason: 'The run was cancelled.' };
}

function budgetStop(kind: BudgetKind): Stop {
  return { status: 'budget', reason: `The ${describeBudget(kind)} is used up.` };
}

function resultOf(run: RunState): RunResult {
  const status: AgentStatus = run.failure ? 'failed' : (run.stop?.status ?? 'completed');
  const lastReply = run.messages
    .slice(run.firstOwnMessage)
    .findLast((message) => message.role === 'assistant');
  const error = run.failure ?? run.stop?.reason;
  return {
    ...run.ref,
    subtype: SUBTYPES[status],
    status,
    isError: status !== 'completed',
    result: lastReply ? textOf(lastReply) : '',
    ...(error ? { error } : {}),
    ...(run.fatal ? { fatal: true } : {}),
    agentType: run.agentType,
    description: run.description,
    numTurns: run.numTurns,
    toolCalls: run.toolCalls,
    durationMs: Date.now() - run.started,
    usage: run.usage,
    costUsd: run.costUsd,
    messages: run.messages,
  };
}

const SUBTYPES: Record<AgentStatus, ResultSubtype> = {
  completed: 'success',
  failed: 'error_during_execution',
  cancelled: 'error_during_execution',
  max_turns: 'error_max_turns',
  budget: 'error_budget',
  stalled: 'error_during_execution',
};

/** Endings without a grace turn: nobody is waiting for a report, or the model does not answer. */
const NO_GRACE: ReadonlySet<AgentStatus> = new Set(['cancelled', 'stalled']);

const NOTHING: readonly AgentEvent[] = [];

function ignore(): void {}

/** An event of this agent, recorded (`onEvent`) as it is made. */
function event(run: RunState, fields: DistributiveOmit<AgentEvent, keyof AgentRef>): AgentEvent {
  const made = { ...run.ref, ...fields } as AgentEvent;
  run.options.onEvent?.(made);
  return made;
}

function append(run: RunState, message: Message): AgentEvent {
  run.messages.push(message);
  return event(run, { type: 'message_end', message });
}

/** Omit that keeps a union a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
