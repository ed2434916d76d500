// The task a TaskOutput or TaskStop call names, as its caller may reach it: only one the caller
// may use (else an error listing those it may), and its ending taken when the caller owns it.
import { FINAL_TASK_STATUSES, type TaskRecord } from '../core/tasks.js';
import type { BackgroundTasks } from './background-tasks.js';

/** The task, when the caller may use it. */
export function taskForCaller(
  tasks: BackgroundTasks,
  callerId: string,
  taskId: string,
): TaskRecord | undefined {
  const record = tasks.manager.get(taskId);
  return record && tasks.mayAccess(callerId, record) ? record : undefined;
}

/**
 * Whether the task has ended. When it has and the caller owns it, the caller has its ending now:
 * the notification that would only repeat it is withdrawn.
 */
export function takeEnding(tasks: BackgroundTasks, callerId: string, record: TaskRecord): boolean {
  const final = FINAL_TASK_STATUSES.has(record.status);
  if (final && record.owner.agentId === callerId) tasks.manager.acknowledge(record.taskId);
  return final;
}

/** The error result for a task id the caller cannot use, listing those it can. */
export function unknownTask(tasks: BackgroundTasks, callerId: string, taskId: string): string {
  const visible = tasks
    .visibleTo(callerId)
    .map((record) => `${record.taskId} (${record.status}: ${record.description})`);
  const list = visible.length > 0 ? visible.join(', ') : 'none';
  return `No task "${taskId}" that you may use. Your tasks: ${list}.`;
}
