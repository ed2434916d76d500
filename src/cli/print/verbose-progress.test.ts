import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/events.js';
import { emptyUsage } from '../../core/usage.js';
import { VerboseProgress } from './verbose-progress.js';

const child = (agentId: string) => ({ agentId, parentId: 'main_1', depth: 1 });

function runStart(agentId: string, description: string): AgentEvent {
  return {
    ...child(agentId),
    type: 'run_start',
    agentType: 'explore',
    description,
    model: 'scripted:x',
    tools: ['Read'],
    cwd: '/tmp',
    path: 'main/Agent#1/explore',
  };
}

describe('--verbose progress', () => {
  it('tells two children of one type apart by their ids', () => {
    const progress = new VerboseProgress();
    const lines = [
      runStart('agent_aaaa1111', 'one'),
      runStart('agent_bbbb2222', 'two'),
      {
        ...child('agent_bbbb2222'),
        type: 'tool_start',
        toolCallId: 't1',
        toolName: 'Read',
        input: { file_path: 'b' },
      },
      {
        ...child('agent_aaaa1111'),
        type: 'tool_start',
        toolCallId: 't2',
        toolName: 'Read',
        input: { file_path: 'a' },
      },
    ].flatMap((event) => progress.lines(event as AgentEvent));
    expect(lines).toEqual([
      '  ▸ explore aaaa1111: one',
      '  ▸ explore bbbb2222: two',
      '  [explore bbbb2222] → Read {"file_path":"b"}',
      '  [explore aaaa1111] → Read {"file_path":"a"}',
    ]);
  });

  it("lists a remote child's tool calls from the conversation it came back with", () => {
    const progress = new VerboseProgress();
    progress.lines(runStart('agent_cccc3333', 'far away'));
    const lines = progress.lines({
      ...child('agent_cccc3333'),
      type: 'result',
      subtype: 'success',
      status: 'completed',
      isError: false,
      result: 'done',
      agentType: 'explore',
      description: 'far away',
      numTurns: 2,
      toolCalls: 1,
      durationMs: 5,
      usage: emptyUsage(),
      costUsd: null,
      messages: [
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'Grep', input: { pattern: 'x' } },
          ],
        },
      ],
    });
    expect(lines).toEqual([
      '  [explore cccc3333] → Grep {"pattern":"x"} (ran remotely)',
      '  ◂ explore cccc3333 completed',
    ]);
  });
});
