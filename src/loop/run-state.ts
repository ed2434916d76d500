// What one run of the loop knows and changes (RunState), and how its events are made: every
// event carries the agent's ref and is recorded (`onEvent`) the moment it is made.

import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Budget } from '../core/budget.js';
import type { DistributiveOmit } from '../core/distributive-omit.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { HandoffVerdict } from '../core/hook-runner.js';
import type { Message } from '../core/messages.js';
import type { Tool } from '../core/tool.js';
import type { Usage } from '../core/usage.js';
import { endpointOfModel } from '../model/model-endpoint.js';
import type { ModelPrice } from '../model/pricing.js';
import type { AgentLoopOptions } from './agent-loop-options.js';
import type { ProgressWatch } from './no-progress.js';
import type { Stop } from './run-stops.js';
import type { Deadline } from './stop-signals.js';
import type { StructuredOutput } from './structured-output.js';

/** The signals of the current turn; rebuilt only after an interrupt. */
export interface TurnSignals {
  /** The interrupt signal this turn follows, if the agent can be interrupted. */
  readonly interrupt: AbortSignal | undefined;
  /** Aborts on cancel or interrupt: what the turn's children follow. */
  readonly cancel: AbortSignal;
  /** Aborts on cancel, interrupt or the deadline: what the model call and tools stop on. */
  readonly signal: AbortSignal;
}

/** Everything one run knows and changes, in one place; the loop's steps take it explicitly. */
export interface RunState {
  readonly ref: AgentRef;
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

/** An event of this agent, recorded (`onEvent`) as it is made. */
export function event(
  run: RunState,
  fields: DistributiveOmit<AgentEvent, keyof AgentRef>,
): AgentEvent {
  const made = { ...run.ref, ...fields } as AgentEvent;
  run.options.onEvent?.(made);
  return made;
}

export function append(run: RunState, message: Message): AgentEvent {
  run.messages.push(message);
  return event(run, { type: 'message_end', message });
}
