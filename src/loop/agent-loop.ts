// The agent loop: ask the model, run the tools it asked for, repeat until it stops or a limit
// ends it. Sub-agents are tools that call agentLoop() again; nothing here knows about them.
import { randomUUID } from 'node:crypto';
import type { LanguageModelV4, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { type ModelTurn, modelTurn } from '../model/model-turn.js';
import { costOf, modelName, priceOf } from '../model/pricing.js';
import { describeModelError, resolveModel } from '../model/resolve-model.js';
import { DEFAULT_RETRY, messageOf, type RetryOptions } from '../model/retry-policy.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import { FileStateCache } from '../tools/file-state.js';
import { FatalToolError, type Tool } from '../tools/tool.js';
import { Budget, type BudgetKind, describeBudget } from './budget.js';
import { EventChannel } from './event-channel.js';
import type { AgentEvent, AgentRef, AgentStatus, ResultSubtype, RunResult } from './events.js';
import { executeToolCall, type ToolCallEnvironment } from './execute-tool-call.js';
import {
  type AssistantMessage,
  type Message,
  type ToolCallPart,
  type ToolResultPart,
  textOf,
  toolCallsOf,
} from './messages.js';
import type { RunContext } from './run-context.js';
import { AbortFanOut, either, followSignal, startDeadline } from './stop-signals.js';
import { addUsage, budgetTokens, emptyUsage } from './usage.js';

export interface AgentLoopOptions {
  /** An AI SDK language model, or a warren model spec such as `anthropic:claude-sonnet-4-5`. */
  model: LanguageModelV4 | string;
  systemPrompt?: string;
  tools?: readonly Tool[];
  /** Earlier conversation to continue (resume, forked context). */
  messages?: readonly Message[];
  /** Working directory of the agent's tools. Default: `process.cwd()`. */
  cwd?: string;
  /** Directories file tools may touch. Default: `[cwd]`. */
  allowedDirs?: readonly string[];
  /** Model turns before the run ends with `max_turns`. Default: no limit. */
  maxTurns?: number;
  /** A budget node shared with the caller; or set the limits below for a fresh one. */
  budget?: Budget;
  timeBudgetMs?: number;
  tokenBudget?: number;
  costBudgetUsd?: number;
  signal?: AbortSignal;
  permissions?: PermissionPolicy;
  fileState?: FileStateCache;
  agentId?: string;
  parentId?: string | null;
  depth?: number;
  /** `main` for the top agent; a definition's name for a sub-agent. */
  agentType?: string;
  description?: string;
  retry?: RetryOptions;
  /** Longest a tool call may run unless the tool sets its own. Default: 15 minutes. */
  toolTimeoutMs?: number;
  maxOutputTokens?: number;
  providerOptions?: SharedV4ProviderOptions;
  /**
   * Stream replies as they are written (`message_delta` per piece). Default true. With false a
   * reply is fetched whole and comes as one delta: less work per call when nobody watches text
   * arrive. Sub-agents do as their parent.
   */
  stream?: boolean;
  /** One last turn without tools when a limit ends the run, so the agent can report. Default: true. */
  graceTurn?: boolean;
  /** Base URL for `openai-compatible:` model specs. */
  baseUrl?: string;
}

export interface AgentLoopParams {
  prompt: string;
  options: AgentLoopOptions;
}

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

/**
 * Runs one agent to the end, yielding every event as it happens; returns the result (also
 * yielded last as the `result` event). Never throws for a run that started: failures end the
 * run with an error result. Throws only for unusable options (a bad model spec).
 */
export async function* agentLoop({
  prompt,
  options,
}: AgentLoopParams): AsyncGenerator<AgentEvent, RunResult> {
  const model =
    typeof options.model === 'string'
      ? await resolveModel(options.model, { baseUrl: options.baseUrl })
      : options.model;
  const started = Date.now();
  const ref: AgentRef = {
    agentId: options.agentId ?? `agent_${randomUUID().slice(0, 8)}`,
    parentId: options.parentId ?? null,
    depth: options.depth ?? 0,
  };
  const agentType = options.agentType ?? 'main';
  const description = options.description ?? '';
  const cwd = options.cwd ?? process.cwd();
  const tools = options.tools ?? [];
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const name = modelName(model);
  const price = priceOf(name);
  const retry = { ...DEFAULT_RETRY, ...options.retry };
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
  const signal = either(cancel.signal, deadline?.expired);

  const messages: Message[] = [...(options.messages ?? [])];
  /** Where this run's messages start; a resumed conversation's old replies are not its result. */
  const firstOwnMessage = messages.length;
  const usage = emptyUsage();
  let costUsd: number | null = price ? 0 : null;
  let numTurns = 0;
  let toolCalls = 0;
  let stop: Stop | undefined;
  let failure: string | undefined;
  let fatal = false;

  const event = (fields: DistributiveOmit<AgentEvent, keyof AgentRef>) =>
    ({ ...ref, ...fields }) as AgentEvent;
  const append = (message: Message) => {
    messages.push(message);
    return event({ type: 'message_end', message });
  };

  const callModel = async function* (
    toolChoice: 'auto' | 'none',
    callSignal: AbortSignal,
    maxOutputTokens = options.maxOutputTokens,
  ): AsyncGenerator<AgentEvent, ModelTurn> {
    numTurns++;
    yield event({ type: 'turn_start', turn: numTurns });
    const turns = modelTurn({
      model,
      messages,
      tools,
      toolChoice,
      stream: options.stream ?? true,
      signal: callSignal,
      retry,
      maxOutputTokens,
      providerOptions: options.providerOptions,
    });
    let step = await turns.next();
    while (!step.done) {
      yield event(step.value);
      step = await turns.next();
    }
    const turn = step.value;
    addUsage(usage, turn.usage);
    const turnCost = costOf(turn.usage, price);
    if (costUsd !== null && turnCost !== null) costUsd += turnCost;
    budget.spend(budgetTokens(turn.usage), turnCost);
    yield event({ type: 'usage', turn: numTurns, usage: turn.usage, costUsd: turnCost });
    return turn;
  };

  // Why the run must stop now, if it must; checked before every model call.
  const limitReached = (): Stop | undefined => {
    if (cancel.signal.aborted) return { status: 'cancelled', reason: 'The run was cancelled.' };
    const kind = deadline?.expired.aborted ? 'time' : budget.exhausted();
    if (kind) return budgetStop(kind);
    if (options.maxTurns !== undefined && numTurns >= options.maxTurns) {
      return { status: 'max_turns', reason: `Reached the maximum of ${options.maxTurns} turns.` };
    }
    return undefined;
  };

  yield event({
    type: 'run_start',
    agentType,
    description,
    model: name,
    tools: tools.map((tool) => tool.name),
    cwd,
  });
  if (messages.length === 0 && options.systemPrompt) {
    yield append({ role: 'system', content: options.systemPrompt });
  }
  yield append({ role: 'user', content: prompt });

  const run: RunContext = {
    options,
    cancelSignal: cancel.signal,
    model,
    tools,
    budget,
    permissions: options.permissions,
    messages,
    get turnsLeft() {
      return (options.maxTurns ?? Infinity) - numTurns;
    },
  };
  const environment: ToolCallEnvironment = {
    tools: toolsByName,
    permissions: options.permissions,
    context: {
      cwd,
      allowedDirs: options.allowedDirs ?? [cwd],
      fileState: options.fileState ?? new FileStateCache(),
      agent: { ...ref, agentType },
      run,
      emit: () => {},
    },
    signal: new AbortFanOut(signal),
    hardStop: new AbortFanOut(either(cancel.signal, deadline?.over)),
    timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    emit: () => {},
  };

  // A consumer may stop early (`break` out of for-await): what the run started stops with it.
  try {
    yield* runTurns();
    if (stop && stop.status !== 'cancelled' && options.graceTurn !== false) {
      yield* graceTurn(stop);
    }
  } finally {
    deadline?.clear();
    cancel.end();
  }

  const status: AgentStatus = failure ? 'failed' : (stop?.status ?? 'completed');
  const lastReply = messages
    .slice(firstOwnMessage)
    .findLast((message) => message.role === 'assistant');
  const result: RunResult = {
    ...ref,
    subtype: SUBTYPES[status],
    status,
    isError: status !== 'completed',
    result: lastReply ? textOf(lastReply) : '',
    ...((failure ?? stop?.reason) ? { error: failure ?? stop?.reason } : {}),
    ...(fatal ? { fatal } : {}),
    agentType,
    description,
    numTurns,
    toolCalls,
    durationMs: Date.now() - started,
    usage,
    costUsd,
    messages,
  };
  yield event({ type: 'result', ...result });
  return result;

  // Turns until the model stops or a limit does; a failure ends them as a stop or a failure.
  async function* runTurns(): AsyncGenerator<AgentEvent, void> {
    try {
      for (stop = limitReached(); !stop; stop = limitReached()) {
        const { message } = yield* callModel('auto', signal);
        yield append(message);
        const calls = toolCallsOf(message);
        if (calls.length > 0) {
          toolCalls += calls.length;
          yield* runToolCalls(calls, environment);
        }
        yield event({ type: 'turn_end', turn: numTurns, message });
        if (calls.length === 0) return;
      }
    } catch (error) {
      stop = stopFromError(error, cancel.signal, deadline?.expired, budget);
      if (stop) return;
      fatal = FatalToolError.isInstance(error);
      failure =
        describeModelError(error, { spec: name, baseUrl: options.baseUrl }) ?? messageOf(error);
    }
  }

  // One more model call without tools, so an agent cut off by a limit can say what it has.
  async function* graceTurn(reason: Stop): AsyncGenerator<AgentEvent, void> {
    const graceSignal = either(cancel.signal, AbortSignal.timeout(GRACE_TIME_MS));
    yield append({
      role: 'user',
      content:
        `${reason.reason} You cannot call tools any more. Reply now with your final answer: ` +
        'what you found or did, and what is left undone.',
    });
    try {
      const { message } = yield* callModel('none', graceSignal, GRACE_MAX_OUTPUT_TOKENS);
      const textOnly: AssistantMessage = {
        role: 'assistant',
        content: message.content.filter((part) => part.type === 'text'),
      };
      yield append(textOnly);
      yield event({ type: 'turn_end', turn: numTurns, message: textOnly });
    } catch (error) {
      reason.reason += ` The final report could not be produced: ${messageOf(error)}`;
    }
  }

  // Runs the calls of one assistant message: all at once when every tool is concurrency-safe,
  // else one by one. Results join the conversation in the order of the calls either way.
  async function* runToolCalls(
    calls: ToolCallPart[],
    env: ToolCallEnvironment,
  ): AsyncGenerator<AgentEvent, void> {
    const channel = new EventChannel<AgentEvent>();
    const callEnv: ToolCallEnvironment = {
      ...env,
      emit: (e) => channel.push(e),
      context: { ...env.context, emit: (e) => channel.push(e) },
    };
    const parallel = calls.every((call) => toolsByName.get(call.toolName)?.isConcurrencySafe);
    const results: ToolResultPart[] = [];
    let fatal: unknown;
    const runOne = async (index: number) => {
      const call = calls[index]!;
      try {
        results[index] = await executeToolCall(call, callEnv);
      } catch (error) {
        if (!signal.aborted) fatal ??= error;
        results[index] = {
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: signal.aborted
            ? 'Cancelled: the run stopped before this call finished.'
            : messageOf(error),
          isError: true,
        };
      }
    };
    const work = (async () => {
      if (parallel) await Promise.all(calls.map((_, index) => runOne(index)));
      else for (let index = 0; index < calls.length; index++) await runOne(index);
    })().finally(() => channel.close());
    yield* channel;
    await work;
    yield append({ role: 'tool', content: results });
    if (fatal) throw fatal;
  }
}

const SUBTYPES: Record<AgentStatus, ResultSubtype> = {
  completed: 'success',
  failed: 'error_during_execution',
  cancelled: 'error_during_execution',
  max_turns: 'error_max_turns',
  budget: 'error_budget',
};

function budgetStop(kind: BudgetKind): Stop {
  return { status: 'budget', reason: `The ${describeBudget(kind)} is used up.` };
}

/** A thrown error that is really a limit (cancel, time budget) becomes a stop, not a failure. */
function stopFromError(
  error: unknown,
  userSignal: AbortSignal | undefined,
  expired: AbortSignal | undefined,
  budget: Budget,
): Stop | undefined {
  if (userSignal?.aborted) return { status: 'cancelled', reason: 'The run was cancelled.' };
  if (expired?.aborted) return budgetStop('time');
  const kind = budget.exhausted();
  if (kind && error instanceof Error && error.name === 'AbortError') return budgetStop(kind);
  return undefined;
}

/** Omit that keeps a union a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
