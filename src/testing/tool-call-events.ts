// The events that open and close one tool call, for tests of what watches a run (the terminal
// UI's views) without running an agent: a call with no input that returns nothing, at once,
// unless the test says otherwise.
import type { AgentEventOf, AgentRef } from '../core/events.js';

/** `ref` starts call `toolCallId` of `toolName`. */
export function toolStartEvent(
  ref: AgentRef,
  toolCallId: string,
  toolName: string,
  input: unknown = {},
): AgentEventOf<'tool_start'> {
  return { ...ref, type: 'tool_start', toolCallId, toolName, input };
}

/** Call `toolCallId` of `ref` returns: no output, no error, every field overridable. */
export function toolEndEvent(
  ref: AgentRef,
  toolCallId: string,
  toolName: string,
  fields: Partial<AgentEventOf<'tool_end'>> = {},
): AgentEventOf<'tool_end'> {
  return {
    ...ref,
    type: 'tool_end',
    toolCallId,
    toolName,
    output: '',
    isError: false,
    durationMs: 1,
    ...fields,
  };
}
