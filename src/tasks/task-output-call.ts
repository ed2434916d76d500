// TaskOutput's call: the task as the caller may see it, waited for unless `block` is false.
import { type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';
import { takeEnding, taskForCaller, unknownTask } from './caller-task.js';
import { DEFAULT_WAIT_MS, type TaskOutputInput } from './task-output-tool.js';
import { taskView } from './task-view.js';

export async function readTask(
  tasks: BackgroundTasks,
  input: TaskOutputInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const caller = ctx.agent.agentId;
  const known = taskForCaller(tasks, caller, input.task_id);
  if (!known) return toolError(unknownTask(tasks, caller, input.task_id));
  const timeoutMs = input.timeout_ms ?? DEFAULT_WAIT_MS;
  const record =
    input.block === false
      ? known
      : await tasks.manager.wait(input.task_id, { timeoutMs, signal: ctx.signal });
  const final = takeEnding(tasks, caller, record);
  const note =
    !final && input.block !== false
      ? `Still ${record.status} after waiting ${timeoutMs} ms.`
      : undefined;
  return taskView(tasks, record, note);
}
