// The tool calls of one assistant message: all at once when every tool is concurrency-safe,
// else one by one, each a step of the run's StepRunner. Their events go out through the run's
// sink as they happen; results keep the order of the calls.
import { messageOf } from '../core/error-message.js';
import type { ToolCallPart, ToolResultPart } from '../core/messages.js';
import { executeToolCall, type ToolCallEnvironment } from './execute-tool-call.js';
import type { EventSink } from './run-state.js';

export interface ToolBatch {
  results: ToolResultPart[];
  /** A FatalToolError (or other throw) that must end the agent once the results are recorded. */
  fatal: unknown;
}

export async function runToolCalls(
  calls: readonly ToolCallPart[],
  env: ToolCallEnvironment,
  emit: EventSink,
): Promise<ToolBatch> {
  const stopped = env.signal.signal;
  const batch: ToolBatch = { results: [], fatal: undefined };
  const runOne = async (index: number) => {
    const call = calls[index]!;
    try {
      // The whole call is the step (validation, hooks, permission, the tool): made in the calls'
      // order before anything is awaited, so a journaling runner sees the same steps on a replay.
      batch.results[index] = await env.steps.run(
        { kind: 'tool', name: `tool:${call.toolName}:${call.toolCallId}` },
        () => executeToolCall(call, env, emit),
      );
    } catch (error) {
      if (!stopped.aborted) batch.fatal ??= error;
      batch.results[index] = {
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: stopped.aborted
          ? 'Cancelled: the run stopped before this call finished.'
          : messageOf(error),
        isError: true,
      };
    }
  };
  if (calls.every((call) => env.tools.get(call.toolName)?.isConcurrencySafe)) {
    await Promise.all(calls.map((_, index) => runOne(index)));
  } else {
    for (let index = 0; index < calls.length; index++) await runOne(index);
  }
  return batch;
}
