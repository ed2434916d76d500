// TaskStop: stops a background task and everything it started. Its partial result is kept and
// reported as `cancelled`.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool } from '../core/tool.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import type { BackgroundTasks } from './background-tasks.js';

/** How long TaskStop waits for the task to wind down before it reports "stopping". */
export const SETTLE_MS = 5_000;

/** One schema for every run's TaskStop, so its JSON Schema is made once per process. */
export const taskStopInputSchema = lazy(() =>
  z.object({
    task_id: z.string().min(1).describe('The id of the task to stop.'),
  }),
);

export type TaskStopInput = z.output<ReturnType<typeof taskStopInputSchema>>;

export function taskStopTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'TaskStop',
    description:
      'Stops a background task (an agent with everything it started, or a shell command with its processes). Returns its partial result.',
    get inputSchema() {
      return taskStopInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.TaskStop,
    // It acts on the run's own background work, not on files or the system.
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: SETTLE_MS + 5_000,
    // Stopping loads with the first call (task-stop-call.ts).
    call: async (input, ctx) => (await import('./task-stop-call.js')).stopTask(tasks, input, ctx),
  });
}
