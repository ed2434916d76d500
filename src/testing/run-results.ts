// The events that open and close an agent's run, for tests that need them without running an
// agent: a start with nothing special, and a success with nothing in it (one turn, no tool calls,
// no usage), unless the test says otherwise.
import type { AgentEventOf, AgentRef, RunResult } from '../core/events.js';
import { emptyUsage } from '../core/usage.js';

/** The `run_start` of `ref`'s run at `path`: the main agent at depth 0, else an explore child. */
export function runStartEvent(
  ref: AgentRef,
  path: string,
  fields: Partial<AgentEventOf<'run_start'>> = {},
): AgentEventOf<'run_start'> {
  return {
    ...ref,
    type: 'run_start',
    agentType: ref.depth === 0 ? 'main' : 'explore',
    description: '',
    model: 'scripted:x',
    tools: [],
    cwd: '/',
    path,
    ...fields,
  };
}

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
