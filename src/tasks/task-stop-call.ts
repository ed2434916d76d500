// TaskStop's call: the task stopped (waiting a while for it to wind down), as the caller sees it.
import { FINAL_TASK_STATUSES } from '../core/tasks.js';
import { type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';
import { takeEnding, taskForCaller, unknownTask } from './caller-task.js';
import { SETTLE_MS, type TaskStopInput } from './task-stop-tool.js';
import { taskView } from './task-view.js';

export async function stopTask(
  tasks: BackgroundTasks,
  input: TaskStopInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const caller = ctx.agent.agentId;
  const known = taskForCaller(tasks, caller, input.task_id);
  if (!known) return toolError(unknownTask(tasks, caller, input.task_id));
  if (FINAL_TASK_STATUSES.has(known.status)) {
    return taskView(tasks, known, `The task had already ended (${known.status}).`);
  }
  const reason = `Stopped by TaskStop (from ${ctx.agent.agentType} ${caller}).`;
  const record = await tasks.manager.stop(input.task_id, reason, {
    timeoutMs: SETTLE_MS,
    signal: ctx.signal,
  });
  const final = takeEnding(tasks, caller, record);
  return taskView(
    tasks,
    record,
    final ? 'Stopped.' : 'Stopping; you will be notified when it has ended.',
  );
}
