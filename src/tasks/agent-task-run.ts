// What a task running an agent keeps as it goes, whoever started it (a background start, or a
// foreground child sent to the background): its progress from the agent's events, the text it
// wrote last (for TaskOutput), and its ending as the outcome the task manager delivers.
import type { ChildEnding, ChildSink } from '../agents/drive-child.js';
import type { AgentStatus } from '../core/events.js';
import { textOf } from '../core/messages.js';
import type { TaskControl, TaskOutcome, TaskProgress, TaskStatus } from '../core/tasks.js';
import { budgetTokens } from '../core/usage.js';

export interface AgentTaskRun {
  status: TaskStatus;
  result: Promise<TaskOutcome>;
  /** The last thing the agent wrote: its last reply, or what it is streaming. */
  lastText: string;
  streaming: string;
}

/** Events of the task's agent (and those below it) go to `emit`; its own feed its progress. */
export function trackedSink(
  run: AgentTaskRun,
  agentId: string,
  control: TaskControl,
  emit: ChildSink,
): ChildSink {
  const progress: TaskProgress = {
    turns: 0,
    toolCalls: 0,
    tokens: 0,
    lastActivityAt: Date.now(),
    lastToolName: null,
  };
  return (event) => {
    emit(event);
    if (event.agentId !== agentId) return;
    switch (event.type) {
      case 'message_delta':
        run.streaming += event.text;
        return;
      case 'message_end':
        run.streaming = '';
        if (event.message.role === 'assistant') run.lastText = textOf(event.message);
        return;
      case 'usage':
        progress.turns = event.turn;
        progress.tokens += budgetTokens(event.usage);
        return;
      case 'tool_start':
        progress.toolCalls++;
        progress.lastToolName = event.toolName;
        return;
      case 'tool_end':
      case 'turn_end':
        // State changes, never stream chunks: the manager throttles the writes further.
        progress.lastActivityAt = Date.now();
        control.progress(progress);
        return;
    }
  };
}

export const TASK_STATUS: Record<AgentStatus, TaskOutcome['status']> = {
  completed: 'completed',
  max_turns: 'completed',
  budget: 'completed',
  failed: 'failed',
  stalled: 'failed',
  cancelled: 'cancelled',
};

/** `text` is what the owner reads: checked, cut to size, with a note when it stopped early. */
export function outcomeOf(
  { result }: Pick<ChildEnding, 'result'>,
  text: string,
  transcript: string | null,
): TaskOutcome {
  const status = TASK_STATUS[result.status];
  const stoppedEarly = result.status === 'max_turns' || result.status === 'budget';
  return {
    status,
    result: text,
    ...(result.error
      ? {
          error: stoppedEarly
            ? `Stopped early: ${result.error} The result is the report it gave then.`
            : result.error,
        }
      : {}),
    agentStatus: result.status,
    usage: result.usage,
    costUsd: result.costUsd,
    resultPath: transcript,
  };
}
