import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/events.js';
import { ChildEvents } from './child-events.js';

const ref = { agentId: 'c1', parentId: 'm', depth: 1 };

function replay(updates: SessionUpdate[]) {
  const events: AgentEvent[] = [];
  const spent: number[] = [];
  const child = new ChildEvents(
    ref,
    (event) => events.push(event),
    (delta) => spent.push(delta),
  );
  for (const update of updates) child.apply(update);
  return { child, events, spent };
}

describe("an ACP child's updates as its events", () => {
  it('makes its text deltas, and each tool call one start and one end with its output', () => {
    const { child, events } = replay([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Look' } },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Read a.ts',
        kind: 'read',
        rawInput: { p: 1 },
      },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't1',
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'file text' } }],
      },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
    ]);
    expect(events.map((event) => event.type)).toEqual(['message_delta', 'tool_start', 'tool_end']);
    expect(events[1]).toMatchObject({ ...ref, toolName: 'Read a.ts', input: { p: 1 } });
    expect(events[2]).toMatchObject({ toolCallId: 't1', output: 'file text', isError: false });
    expect(child).toMatchObject({ text: 'Look', toolCalls: 1 });
  });

  it('shows its plan as a TodoWrite, and ends calls still open when it stops as failed', () => {
    const { child, events } = replay([
      { sessionUpdate: 'plan', entries: [{ content: 'Fix', status: 'pending', priority: 'high' }] },
      { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'rm', kind: 'execute' },
    ]);
    child.endOpen('cancelled');
    expect(events[0]).toMatchObject({
      type: 'tool_start',
      toolName: 'TodoWrite',
      input: { todos: [{ content: 'Fix', status: 'pending' }] },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'tool_end',
      toolCallId: 't2',
      isError: true,
      output: 'cancelled',
    });
  });

  it('adds what the agent says it cost in dollars, as deltas of its running total, and nothing else', () => {
    const { child, spent } = replay([
      {
        sessionUpdate: 'usage_update',
        used: 10,
        size: 100,
        cost: { amount: 0.5, currency: 'USD' },
      },
      { sessionUpdate: 'usage_update', used: 20, size: 100, cost: { amount: 3, currency: 'EUR' } },
      {
        sessionUpdate: 'usage_update',
        used: 30,
        size: 100,
        cost: { amount: 0.75, currency: 'USD' },
      },
      { sessionUpdate: 'usage_update', used: 30, size: 100, cost: { amount: -9, currency: 'USD' } },
    ]);
    expect(spent).toEqual([0.5, 0.25]);
    expect(child.costUsd).toBe(0.75);
  });
});
