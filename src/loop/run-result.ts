// How a run ends up as its result: its status (a failure, a stop, or completed), its last reply
// or structured value, and what it used.
import type { AgentRef, AgentStatus, ResultSubtype, RunResult } from '../core/events.js';
import type { HandoffVerdict } from '../core/hook-runner.js';
import { type Message, textOf } from '../core/messages.js';
import type { Usage } from '../core/usage.js';
import type { Stop } from './run-stops.js';

/** What of a run its result is made from. */
export interface ResultFacts {
  readonly ref: AgentRef;
  readonly agentType: string;
  readonly description: string;
  readonly messages: Message[];
  /** Where this run's messages start; a resumed conversation's old replies are not its result. */
  readonly firstOwnMessage: number;
  readonly usage: Usage;
  readonly started: number;
  readonly output: { readonly recorded: { value: unknown } | undefined } | undefined;
  readonly handoff?: HandoffVerdict;
  readonly costUsd: number | null;
  readonly numTurns: number;
  readonly toolCalls: number;
  readonly stop?: Stop;
  readonly failure?: string;
  readonly fatal: boolean;
}

export function statusOf(run: Pick<ResultFacts, 'failure' | 'stop'>): AgentStatus {
  return run.failure ? 'failed' : (run.stop?.status ?? 'completed');
}

/** The agent's last reply in this run; a resumed conversation's old replies are not its own. */
export function lastReplyText(run: Pick<ResultFacts, 'messages' | 'firstOwnMessage'>): string {
  const lastReply = run.messages
    .slice(run.firstOwnMessage)
    .findLast((message) => message.role === 'assistant');
  return lastReply ? textOf(lastReply) : '';
}

export function resultOf(run: ResultFacts): RunResult {
  const status = statusOf(run);
  const error = run.failure ?? run.stop?.reason;
  const structured = run.output?.recorded;
  return {
    ...run.ref,
    subtype: subtypeOf(status),
    status,
    isError: status !== 'completed',
    result: structured ? JSON.stringify(structured.value) : lastReplyText(run),
    ...(structured ? { structuredOutput: structured.value } : {}),
    ...(run.handoff ? { handoff: run.handoff } : {}),
    ...(error ? { error } : {}),
    ...(run.fatal ? { fatal: true } : {}),
    ...(run.stop?.paused ? { paused: true } : {}),
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

/** The JSON contract's subtype of a status. */
export function subtypeOf(status: AgentStatus): ResultSubtype {
  return SUBTYPES[status];
}

const SUBTYPES: Record<AgentStatus, ResultSubtype> = {
  completed: 'success',
  failed: 'error_during_execution',
  cancelled: 'error_during_execution',
  max_turns: 'error_max_turns',
  budget: 'error_budget',
  stalled: 'error_during_execution',
  no_progress: 'error_during_execution',
};
