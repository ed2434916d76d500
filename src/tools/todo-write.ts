// The TodoWrite tool: the agent's own task list. Each call sends the whole list and replaces the
// previous one; the list lives in the event stream (telemetry/todo-lists.ts), not in the tool,
// so one tool object serves every agent and a list is never shared between agents.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { TODO_STATUSES, type TodoItem } from '../core/todo-list.js';
import { defineTool } from '../core/tool.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';

/** Enough for any real plan; a longer list is a model stuck in a loop. */
const MAX_TODOS = 100;
const MAX_TEXT_CHARS = 1000;

const todoSchema = () =>
  z.object({
    content: z
      .string()
      .trim()
      .min(1)
      .max(MAX_TEXT_CHARS)
      .describe('The task, in the imperative: "Run the tests".'),
    status: z.enum(TODO_STATUSES).describe('pending, in_progress or completed.'),
    activeForm: z
      .string()
      .trim()
      .min(1)
      .max(MAX_TEXT_CHARS)
      .optional()
      .describe(
        'The task as it is being done, shown while it is in progress: "Running the tests".',
      ),
  });

export const todoWriteInputSchema = lazy(() =>
  z.object({
    todos: z
      .array(todoSchema())
      .max(MAX_TODOS)
      .describe('The whole updated list, every task with its current status.'),
  }),
);

export const todoWriteTool = defineTool({
  name: 'TodoWrite',
  description: [
    'Keeps your task list for the current work: send the whole list each time; it replaces the previous one.',
    '',
    '- Use it for work of three or more steps, or when you are given several tasks at once; skip it for a single quick task.',
    '- Mark a task in_progress before you start it and completed as soon as it is done, not in batches. Keep one task in_progress at a time, unless several run in parallel (sub-agents).',
    '- Mark a task completed only when it is fully done; if you are blocked, keep it in_progress and add a task for what blocks it.',
    '- The person watching the run sees the list, so keep the wording short and concrete.',
  ].join('\n'),
  get inputSchema() {
    return todoWriteInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.TodoWrite,
  // It changes nothing outside the run: it only reports the agent's plan.
  isReadOnly: true,
  isConcurrencySafe: true,
  async call(input) {
    return `Task list updated: ${summary(input.todos)}. Keep it current as you work.`;
  },
});

/** "2 completed, 1 in progress, 3 pending", or "empty". */
function summary(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'empty';
  const count = (status: TodoItem['status']) =>
    todos.filter((todo) => todo.status === status).length;
  return [
    [count('completed'), 'completed'],
    [count('in_progress'), 'in progress'],
    [count('pending'), 'pending'],
  ]
    .filter(([n]) => n !== 0)
    .map(([n, label]) => `${n} ${label}`)
    .join(', ');
}
