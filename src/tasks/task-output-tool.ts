// TaskOutput: how a background task is doing, and its result once it has one. Blocks (by
// default) until the task ends or the timeout passes; never longer than the caller's signal.
import { z } from 'zod';
import { defineTool, type Tool, toolError } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';
import { takeEnding, taskForCaller, unknownTask } from './caller-task.js';
import { taskView } from './task-view.js';

const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

const inputSchema = z.object({
  task_id: z
    .string()
    .min(1)
    .describe('The task id an Agent or Bash call with run_in_background returned.'),
  block: z
    .boolean()
    .optional()
    .describe('Wait for the task to end (default true); false returns at once.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(MAX_WAIT_MS)
    .optional()
    .describe(`How long to wait at most (default ${DEFAULT_WAIT_MS}).`),
});

export function taskOutputTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'TaskOutput',
    description:
      'Reads a background task: its status, progress and result, or its output so far. By default it waits until the task ends (at most timeout_ms). You are notified when a task ends anyway: use this only when you need a result before you can go on.',
    inputSchema,
    // It only reads the run's own tasks.
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: MAX_WAIT_MS + 5_000,
    async call(input, ctx) {
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
    },
  });
}
