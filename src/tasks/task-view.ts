// How a task looks to the model in TaskOutput and TaskStop results: one JSON line of facts, then
// its result (or its output so far), cut like a foreground result.
import type { TaskRecord } from '../core/tasks.js';
import { FINAL_TASK_STATUSES } from '../core/tasks.js';
import type { BackgroundTasks } from './background-tasks.js';
import { truncateForOwner } from './task-notification.js';

export function taskView(tasks: BackgroundTasks, record: TaskRecord, note?: string): string {
  const final = FINAL_TASK_STATUSES.has(record.status);
  const facts = {
    task_id: record.taskId,
    kind: record.kind,
    status: record.status,
    ...(record.agentStatus && record.agentStatus !== record.status
      ? { agent_status: record.agentStatus }
      : {}),
    description: record.description,
    agent_id: record.agentId,
    name: record.name,
    progress: {
      turns: record.progress.turns,
      tool_calls: record.progress.toolCalls,
      tokens: record.progress.tokens,
      last_activity: record.progress.lastActivityAt
        ? new Date(record.progress.lastActivityAt).toISOString()
        : null,
      last_tool: record.progress.lastToolName,
    },
    ...(record.error ? { error: record.error } : {}),
    output_file: record.resultPath,
  };
  const max = tasks.runtime.resultMaxChars;
  const body = final
    ? `Result:\n${truncateForOwner(record.result ?? '', max, record.resultPath) || '(no output)'}`
    : `Output so far:\n${truncateForOwner(tasks.manager.output(record.taskId), max, record.resultPath) || '(nothing yet)'}`;
  return [JSON.stringify(facts), ...(note ? [note] : []), body].join('\n');
}
