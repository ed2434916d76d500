// TaskOutput: how a background task is doing, and its result once it has one. Blocks (by
// default) until the task ends or the timeout passes; never longer than the caller's signal.
// The reading itself (task-output-call.ts) loads with the first call.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool } from '../core/tool.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import type { BackgroundTasks } from './background-tasks.js';

export const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

export const taskOutputInputSchema = lazy(() =>
  z.object({
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
  }),
);

export type TaskOutputInput = z.output<ReturnType<typeof taskOutputInputSchema>>;

export function taskOutputTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'TaskOutput',
    description:
      'Reads a background task: its status, progress and result, or its output so far. By default it waits until the task ends (at most timeout_ms). You are notified when a task ends anyway: use this only when you need a result before you can go on.',
    get inputSchema() {
      return taskOutputInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.TaskOutput,
    // It only reads the run's own tasks.
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: MAX_WAIT_MS + 5_000,
    // Reading the task loads with the first call (task-output-call.ts).
    call: async (input, ctx) => (await import('./task-output-call.js')).readTask(tasks, input, ctx),
  });
}
