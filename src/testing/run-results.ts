// A finished agent's result for tests that need one without running an agent: a success with
// nothing in it (one turn, no tool calls, no usage) unless the test says otherwise.
import type { AgentEventOf, AgentRef, RunResult } from '../core/events.js';
import { emptyUsage } from '../core/usage.js';

/** The result of `ref`'s run: completed, empty, every field overridable. */
export function finishedRun(ref: AgentRef, fields: Partial<RunResult> = {}): RunResult {
  return {
    ...ref,
    subtype: 'success',
    status: 'completed',
    isError: false,
    result: '',
    agentType: 'explore',
    description: '',
    numTurns: 1,
    toolCalls: 0,
    durationMs: 1,
    usage: emptyUsage(),
    costUsd: null,
    messages: [],
    ...fields,
  };
}

/** The `result` event that ends `ref`'s run (see `finishedRun`). */
export function resultEvent(
  ref: AgentRef,
  fields: Partial<RunResult> = {},
): AgentEventOf<'result'> {
  return { type: 'result', ...finishedRun(ref, fields) };
}
