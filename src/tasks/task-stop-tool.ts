// TaskStop: stops a background task and everything it started. Its partial result is kept and
// reported as `cancelled`.
import { z } from 'zod';
import { FINAL_TASK_STATUSES } from '../core/tasks.js';
import { defineTool, type Tool, toolError } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';
import { takeEnding, taskForCaller, unknownTask } from './caller-task.js';
import { taskView } from './task-view.js';

/** How long TaskStop waits for the task to wind down before it reports "stopping". */
const SETTLE_MS = 5_000;

/** One schema for every run's TaskStop, so its JSON Schema is made once per process. */
const inputSchema = z.object({
  task_id: z.string().min(1).describe('The id of the task to stop.'),
});

export function taskStopTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'TaskStop',
    description:
      'Stops a background task (an agent with everything it started, or a shell command with its processes). Returns its partial result.',
    inputSchema,
    // It acts on the run's own background work, not on files or the system.
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: SETTLE_MS + 5_000,
    async call(input, ctx) {
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
    },
  });
}
