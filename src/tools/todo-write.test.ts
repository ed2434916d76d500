import { describe, expect, it } from 'vitest';
import { isErrorOutput, outputText, testToolContext } from '../testing/tool-context.js';
import { todoWriteTool } from './todo-write.js';

const ctx = testToolContext();

describe('TodoWrite', () => {
  it('accepts the whole list and says what it now holds', async () => {
    const input = todoWriteTool.inputSchema.parse({
      todos: [
        { content: 'Read the failing test', status: 'completed' },
        { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' },
        { content: 'Run the tests', status: 'pending' },
      ],
    });
    const result = await todoWriteTool.call(input, ctx);
    expect(outputText(result)).toBe(
      'Task list updated: 1 completed, 1 in progress, 1 pending. Keep it current as you work.',
    );
  });

  it('accepts an empty list: the work is done or abandoned', async () => {
    expect(outputText(await todoWriteTool.call({ todos: [] }, ctx))).toMatch(/updated: empty/);
  });

  it('refuses an unknown status or an empty task, naming the field', () => {
    const bad = todoWriteTool.inputSchema.safeParse({
      todos: [{ content: ' ', status: 'done' }],
    });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'todos.0.content',
      'todos.0.status',
    ]);
  });

  it('drops fields older task-list schemas sent (id, priority)', () => {
    const input = todoWriteTool.inputSchema.parse({
      todos: [{ id: '1', priority: 'high', content: 'x', status: 'pending' }],
    }) as { todos: unknown[] };
    expect(input.todos).toEqual([{ content: 'x', status: 'pending' }]);
  });

  it('is harmless: read-only and parallel-safe, so it never needs asking', () => {
    expect(todoWriteTool.isReadOnly).toBe(true);
    expect(todoWriteTool.isConcurrencySafe).toBe(true);
    expect(isErrorOutput('x')).toBe(false);
  });
});
