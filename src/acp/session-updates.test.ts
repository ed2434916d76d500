import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/events.js';
import { SessionUpdates } from './session-updates.js';

const main = { agentId: 'm', parentId: null, depth: 0 };
const child = { agentId: 'c', parentId: 'm', depth: 1 };
const start = (
  ref: typeof main | typeof child,
  path: string,
  parentToolCallId?: string,
): AgentEvent => ({
  ...ref,
  type: 'run_start',
  agentType: path.split('/').at(-1) ?? path,
  description: '',
  model: 'x',
  tools: [],
  cwd: '/proj',
  path,
  ...(parentToolCallId ? { parentToolCallId } : {}),
});

describe('session updates of a tree', () => {
  it('keeps apart calls that two agents gave the same id, and nests the child in its Agent call', () => {
    const updates = new SessionUpdates();
    const all = [
      start(main, 'main'),
      {
        ...main,
        type: 'tool_start',
        toolCallId: 'call_1',
        toolName: 'Agent',
        input: { description: 'look' },
      },
      start(child, 'main/Agent#1/explore', 'call_1'),
      {
        ...child,
        type: 'tool_start',
        toolCallId: 'call_1',
        toolName: 'Read',
        input: { file_path: 'a.ts' },
      },
    ].flatMap((event) => updates.updatesOf(event as AgentEvent));
    const calls = all.filter((update) => update.sessionUpdate === 'tool_call');
    expect(calls.map((call) => call.toolCallId)).toEqual(['m:call_1', 'c:call_1']);
    expect(calls[1]).toMatchObject({
      title: 'main/Agent#1/explore › Read: a.ts',
      kind: 'read',
      locations: [{ path: '/proj/a.ts' }],
      _meta: { warren: { parentToolCallId: 'm:call_1', agentPath: 'main/Agent#1/explore' } },
    });
    const container = all.filter(
      (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'm:call_1',
    );
    expect(JSON.stringify(container.at(-1))).toContain('main/Agent#1/explore: Read: a.ts');
  });

  it('streams only the main agent as message chunks', () => {
    const updates = new SessionUpdates();
    updates.updatesOf(start(main, 'main'));
    updates.updatesOf(start(child, 'main/Agent#1/explore', 'x'));
    expect(updates.updatesOf({ ...child, type: 'message_delta', text: 'child' })).toEqual([]);
    expect(updates.updatesOf({ ...main, type: 'message_delta', text: 'hi' })).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } },
    ]);
  });
});
