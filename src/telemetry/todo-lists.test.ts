import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/events.js';
import { TodoLists } from './todo-lists.js';

const main = { agentId: 'main', parentId: null, depth: 0 };
const child = { agentId: 'child', parentId: 'main', depth: 1 };

function write(
  who: typeof main | typeof child,
  id: string,
  todos: unknown,
  isError = false,
): AgentEvent[] {
  return [
    { ...who, type: 'tool_start', toolCallId: id, toolName: 'TodoWrite', input: { todos } },
    {
      ...who,
      type: 'tool_end',
      toolCallId: id,
      toolName: 'TodoWrite',
      output: '',
      isError,
      durationMs: 1,
    },
  ];
}

describe('TodoLists', () => {
  it('keeps each agent its latest list, from calls that succeeded', () => {
    const lists = new TodoLists();
    const changes = [
      ...write(main, 'c1', [{ content: 'plan', status: 'in_progress' }]),
      ...write(child, 'c1', [{ content: 'look', status: 'pending', activeForm: 'Looking' }]),
      ...write(main, 'c2', [{ content: 'plan', status: 'completed' }]),
      ...write(main, 'c3', [{ content: 'bad', status: 'done' }]),
      ...write(main, 'c4', [{ content: 'refused', status: 'pending' }], true),
    ].map((event) => lists.observe(event));
    expect(changes.filter(Boolean)).toEqual([
      { agentId: 'main', todos: [{ content: 'plan', status: 'in_progress' }] },
      { agentId: 'child', todos: [{ content: 'look', status: 'pending', activeForm: 'Looking' }] },
      { agentId: 'main', todos: [{ content: 'plan', status: 'completed' }] },
    ]);
    expect(lists.of('main')).toEqual([{ content: 'plan', status: 'completed' }]);
    expect(lists.of('nobody')).toBeNull();
  });
});
