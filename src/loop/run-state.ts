// What one run of the loop knows and changes (RunState), and how its events are made: every
// event carries the agent's ref, is recorded (`onEvent`) the moment it is made, and goes out
// through the run's sink at once.

import { randomUUID } from 'node:crypto';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { Budget } from '../core/budget.js';
import type { DistributiveOmit } from '../core/distributive-omit.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { HandoffVerdict } from '../core/hook-runner.js';
import type { Message } from '../core/messages.js';
import type { Tool } from '../core/tool.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import { endpointOfModel } from '../model/model-endpoint.js';
import { type ModelPrice, modelName, priceOf } from '../model/pricing.js';
import type { AgentLoopOptions } from './agent-loop-options.js';
import { ProgressWatch } from './no-progress.js';
import type { Stop } from './run-stops.js';
import { type Deadline, either, followSignal, startDeadline } from './stop-signals.js';
import { StructuredOutput } from './structured-output.js';

/** The signals of the current turn; rebuilt only after an interrupt. */
export interface TurnSignals {
  /** The interrupt signal this turn follows, if the agent can be interrupted. */
  readonly interrupt: AbortSignal | undefined;
  /** Aborts on cancel or interrupt: what the turn's children follow. */
  readonly cancel: AbortSignal;
  /** Aborts on cancel, interrupt or the deadline: what the model call and tools stop on. */
  readonly signal: AbortSignal;
}

/** Where a run's events go: its consumer's stream, or its parent's sink for a child. */
export type EventSink = (event: AgentEvent) => void;

/** Everything one run knows and changes, in one place; the loop's steps take it explicitly. */
export interface RunState {
  readonly ref: AgentRef;
  /**
   * Passes an event on to whoever reads the run. Its own events go through `event()`, which
   * records them first; its children's, and background agents' (`Inbox.passTo`), come here as
   * their own loops made (and recorded) them.
   */
  readonly sink: EventSink;
  readonly path: string;
  /** Sent with every model request, so a proxy or gateway can tell the agents apart. */
  readonly headers: Record<string, string>;
  readonly agentType: string;
  readonly description: string;
  readonly cwd: string;
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
  /** Aborts on cancel or once the wind-down window has closed: when waiting stops. */
  readonly hardStop: AbortSignal;
  turn: TurnSignals;
  readonly messages: Message[];
  /** Where this run's messages start; a resumed conversation's old replies are not its result. */
  readonly firstOwnMessage: number;
  readonly usage: Usage;
  readonly started: number;
  /** Present when the agent must finish with a structured value. */
  readonly output: StructuredOutput | undefined;
  /** What the agent may call: its tools, and StructuredOutput when it has a schema. */
  readonly tools: readonly Tool[];
  /**
   * What the model is offered: `tools`, or for a forked agent its parent's list (with its own
   * StructuredOutput, if it has a schema), so its requests open with its parent's prefix.
   */
  readonly shownTools: readonly Tool[];
  stopHookContinuations: number;
  /** Identical tool-call batches in a row (no-progress detection). */
  readonly progress: ProgressWatch;
  handoff?: HandoffVerdict;
  costUsd: number | null;
  numTurns: number;
  toolCalls: number;
  stop?: Stop;
  failure?: string;
  fatal: boolean;
}

/** What a model error message names: the model, and where its requests went. */
export function modelOf(run: RunState) {
  return {
    spec: run.modelName,
    baseUrl: run.options.baseUrl,
    endpoint: endpointOfModel(run.model),
  };
}

/** An event of this agent: recorded (`onEvent`) as it is made, then passed on. */
export function event(run: RunState, fields: DistributiveOmit<AgentEvent, keyof AgentRef>): void {
  const made = { ...run.ref, ...fields } as AgentEvent;
  run.options.onEvent?.(made);
  run.sink(made);
}

export function append(run: RunState, message: Message): void {
  run.messages.push(message);
  event(run, { type: 'message_end', message });
}

/** A run's state at its start: its signals, budget, conversation so far and tools. */
export function startRun(
  options: AgentLoopOptions,
  model: LanguageModelV4,
  sink: EventSink,
): RunState {
  const name = modelName(model);
  const price = priceOf(name, options.prices);
  const budget =
    options.budget ??
    new Budget({
      timeMs: options.timeBudgetMs,
      tokens: options.tokenBudget,
      costUsd: options.costBudgetUsd,
      windDownMs: options.windDownMs,
    });
  // Two ways a run is stopped: the caller cancels it (options.signal), or the time budget ends
  // (the deadline). Model calls and tools stop on either; children follow only the first, and
  // end on the shared deadline by their own timer, so they still get their grace turn, inside
  // a wind-down window that closes before their parent's (Budget.windDownEnd).
  // Each agent has its own cancel signal, tied to its caller's by one listener: a signal shared
  // by a thousand sub-agents' requests would make every listener added to it cost O(n).
  const cancel = followSignal(options.signal);
  const deadline = startDeadline(budget.effectiveDeadline(), budget.windDownEnd());
  const messages = [...(options.messages ?? [])];
  const output = options.outputSchema && new StructuredOutput(options.outputSchema);
  const signal = either(cancel.signal, deadline?.expired);
  const ref: AgentRef = {
    agentId: options.agentId ?? `agent_${randomUUID().slice(0, 8)}`,
    parentId: options.parentId ?? null,
    depth: options.depth ?? 0,
  };
  const path = options.agentPath ?? 'main';
  const tools = withOutputTool(options.tools ?? [], output);
  // Background agents' events join the run's stream as they are made.
  options.inbox?.passTo(sink);
  return {
    ref,
    sink,
    path,
    headers: {
      'x-warren-agent-id': ref.agentId,
      ...(ref.parentId === null ? {} : { 'x-warren-parent-agent-id': ref.parentId }),
      'x-warren-agent-path': path,
    },
    agentType: options.agentType ?? 'main',
    description: options.description ?? '',
    cwd: options.cwd ?? process.cwd(),
    options,
    model,
    modelName: name,
    price,
    budget,
    cancel,
    deadline,
    signal,
    hardStop: either(cancel.signal, deadline?.ended),
    turn: { interrupt: undefined, cancel: cancel.signal, signal },
    messages,
    firstOwnMessage: messages.length,
    usage: emptyUsage(),
    started: Date.now(),
    costUsd: price ? 0 : null,
    numTurns: 0,
    toolCalls: 0,
    fatal: false,
    output,
    tools,
    // The same list unless the agent is shown another (a forked agent: its parent's).
    shownTools: options.shownTools ? withOutputTool(options.shownTools, output) : tools,
    stopHookContinuations: 0,
    progress: new ProgressWatch(),
  };
}

/** The tools with this agent's StructuredOutput last, in place of any of that name. */
function withOutputTool(
  tools: readonly Tool[],
  output: StructuredOutput | undefined,
): readonly Tool[] {
  // A frozen list (a child's, shared with its siblings) cannot change under the run: kept as is.
  if (!output) return Object.isFrozen(tools) ? tools : [...tools];
  return [...tools.filter((tool) => tool.name !== output.tool.name), output.tool];
}
