// What the screen keeps of a session's events: finished entries in the order things happened,
// the main agent's streaming text, and one live row per sub-agent until its call returns.
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRef } from '../../core/events.js';
import { emptyUsage } from '../../core/usage.js';
import { resultEvent, runStartEvent } from '../../testing/run-results.js';
import { toolEndEvent, toolStartEvent } from '../../testing/tool-call-events.js';
import { SessionView } from './session-view.js';
import { activityOf } from './view-items.js';

const main = { agentId: 'main_1', parentId: null, depth: 0 };
const child = { agentId: 'child_1', parentId: 'main_1', depth: 1 };
const grandchild = { agentId: 'grand_1', parentId: 'child_1', depth: 2 };

function runStart(
  ref: AgentRef,
  agentType: string,
  description: string,
  parentToolCallId: string,
): AgentEvent {
  return runStartEvent(ref, 'main/Agent#1/explore', { agentType, description, parentToolCallId });
}

function result(ref: AgentRef, status: 'completed' | 'failed', extra: object = {}): AgentEvent {
  const failed = { subtype: 'error_during_execution', status, isError: true } as const;
  return resultEvent(ref, {
    numTurns: 2,
    toolCalls: 3,
    durationMs: 5100,
    ...(status === 'failed' ? failed : {}),
    ...extra,
  });
}

function usage(ref: AgentRef, input: number, output: number, costUsd: number | null): AgentEvent {
  return {
    ...ref,
    type: 'usage',
    turn: 1,
    usage: { ...emptyUsage(), inputTokens: input, outputTokens: output },
    costUsd,
    durationMs: 10,
    finishReason: 'stop',
  };
}

function viewOf(events: AgentEvent[]): SessionView {
  const view = new SessionView({ cwd: '/project' });
  for (const event of events) view.observe(event, 1000);
  return view;
}

describe('the session view', () => {
  it('says a sub-agent waiting on a permission answer is blocked, and what it does once answered', () => {
    const wait = (waiting: boolean): AgentEvent => ({
      ...child,
      type: 'permission_wait',
      toolCallId: 'call_w',
      toolName: 'Write',
      waiting,
    });
    const view = viewOf([
      runStart(child, 'general-purpose', 'writes it', 'call_1'),
      toolStartEvent(child, 'call_w', 'Write', { file_path: '/project/x.txt', content: 'x' }),
      wait(true),
    ]);
    const row = view.agents.get(child.agentId)!;
    expect(activityOf(row)).toBe('blocked: waiting for permission to use Write');
    view.observe(wait(false), 1000);
    expect(activityOf(row)).not.toMatch(/blocked/);
  });

  it('streams the main agent’s text, then keeps it as one Markdown entry', () => {
    const view = viewOf([
      { ...main, type: 'message_start' },
      { ...main, type: 'message_delta', text: 'Hello, ' },
      { ...main, type: 'message_delta', text: '**world**' },
    ]);
    expect(view.streaming).toBe('Hello, **world**');
    expect(view.entries).toEqual([]);
    view.observe(
      {
        ...main,
        type: 'message_end',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hello, **world**' }] },
      },
      1000,
    );
    expect(view.streaming).toBe('');
    expect(view.entries).toEqual([{ id: 1, kind: 'assistant', text: 'Hello, **world**' }]);
  });

  it('shows a tool call of the main agent live, then as one line with its time', () => {
    const view = viewOf([
      toolStartEvent(main, 't1', 'Read', { file_path: '/project/src/auth.ts' }),
    ]);
    expect([...view.tools.values()].map((tool) => tool.summary)).toEqual(['Read src/auth.ts']);
    view.observe(toolEndEvent(main, 't1', 'Read', { output: 'x', durationMs: 12 }), 1000);
    expect(view.tools.size).toBe(0);
    expect(view.entries).toEqual([
      { id: 1, kind: 'tool', summary: 'Read src/auth.ts', isError: false, durationMs: 12 },
    ]);
  });

  it('keeps a failed call’s first line, or the denial as people read it', () => {
    const view = viewOf([
      toolStartEvent(main, 't1', 'Read', { file_path: 'gone.txt' }),
      toolEndEvent(main, 't1', 'Read', {
        output: 'No such file\nmore',
        isError: true,
        durationMs: 3,
      }),
      toolStartEvent(main, 't2', 'Bash', { command: 'rm -rf /' }),
      toolEndEvent(main, 't2', 'Bash', {
        output: 'Permission … (for the model)',
        isError: true,
        durationMs: 0,
        denial: 'Bash(rm -rf /) was denied by the rule "Bash(rm:*)"',
      }),
    ]);
    expect(view.entries.map((entry) => (entry.kind === 'tool' ? entry.detail : undefined))).toEqual(
      ['No such file', 'Bash(rm -rf /) was denied by the rule "Bash(rm:*)"'],
    );
  });

  it('gives a sub-agent a live row that counts its turns, tools and tokens and says what it does', () => {
    const view = viewOf([
      toolStartEvent(main, 'a1', 'Agent', { description: 'map', subagent_type: 'explore' }),
      runStart(child, 'explore', 'map the code', 'a1'),
      { ...child, type: 'turn_start', turn: 1 },
      usage(child, 1200, 40, 0.01),
      toolStartEvent(child, 'c1', 'Grep', { pattern: 'auth' }),
    ]);
    const row = view.agents.get('child_1')!;
    expect(row).toMatchObject({
      agentType: 'explore',
      description: 'map the code',
      turns: 1,
      toolCalls: 1,
      tokens: 1240,
      status: 'running',
    });
    expect(activityOf(row)).toBe('Grep auth');
    view.observe(toolEndEvent(child, 'c1', 'Grep', { durationMs: 5 }), 1000);
    expect(activityOf(row)).toBe('thinking');
  });

  it('collapses a finished sub-agent into one summary line when its call returns, with its children', () => {
    const view = viewOf([
      toolStartEvent(main, 'a1', 'Agent'),
      runStart(child, 'general-purpose', 'review', 'a1'),
      toolStartEvent(child, 'c1', 'Agent'),
      runStart(grandchild, 'explore', 'check the rules', 'c1'),
      usage(grandchild, 100, 10, null),
      result(grandchild, 'completed'),
      toolEndEvent(child, 'c1', 'Agent', { durationMs: 9 }),
    ]);
    // The finished grandchild stays under its running parent.
    expect([...view.agents.keys()]).toEqual(['child_1', 'grand_1']);
    view.observe(result(child, 'failed', { error: 'the model failed\nat …' }), 1000);
    view.observe(toolEndEvent(main, 'a1', 'Agent', { isError: true, durationMs: 9 }), 1000);
    expect(view.agents.size).toBe(0);
    expect(view.entries).toEqual([
      {
        id: 1,
        kind: 'agent',
        agent: {
          agentType: 'general-purpose',
          description: 'review',
          status: 'failed',
          turns: 2,
          toolCalls: 3,
          tokens: 0,
          durationMs: 5100,
          error: 'the model failed',
        },
      },
    ]);
  });

  it('adds up tokens and cost of every agent; an unknown price makes the cost unknown', () => {
    const view = viewOf([usage(main, 100, 10, 0.5), usage(child, 50, 5, 0.25)]);
    expect(view.usage).toMatchObject({ inputTokens: 150, outputTokens: 15 });
    expect(view.costUsd).toBe(0.75);
    view.observe(usage(child, 1, 1, null), 1000);
    expect(view.costUsd).toBeNull();
  });

  it('says when the turn was interrupted or failed', () => {
    const view = viewOf([
      { ...main, type: 'message_delta', text: 'Half an ans' },
      result(main, 'completed', { status: 'cancelled', isError: true }),
      result(main, 'failed', { error: 'model unreachable' }),
    ]);
    expect(
      view.entries.map((entry) =>
        entry.kind === 'notice' || entry.kind === 'assistant' ? entry.text : '',
      ),
    ).toEqual(['Half an ans', 'Interrupted.', 'model unreachable']);
  });
});

describe('agents in the background', () => {
  it('moves a child whose call returned while it works to the background, and reports its end', () => {
    const view = viewOf([
      toolStartEvent(main, 'a1', 'Agent', { description: 'watch' }),
      runStart(child, 'explore', 'watch the logs', 'a1'),
      toolEndEvent(main, 'a1', 'Agent', {
        output: '{"task_id":"t1","status":"running"}',
        durationMs: 4,
      }),
    ]);
    expect(view.agents.get('child_1')?.background).toBe(true);
    expect(view.entries.map((entry) => entry.kind === 'tool' && entry.summary)).toEqual([
      'Agent watch (in the background)',
    ]);
    view.observe(result(child, 'completed'), 1000);
    expect(view.agents.size).toBe(0);
    expect(view.entries.at(-1)).toMatchObject({
      kind: 'agent',
      background: true,
      agent: { agentType: 'explore', status: 'completed' },
    });
  });
});

describe('background tasks', () => {
  const task = {
    ...main,
    taskId: 'task_1',
    kind: 'local_agent',
    taskAgentId: 'child_1',
    description: 'watch the logs',
    name: null,
  } as const;
  const started = (status: 'pending' | 'running' = 'running'): AgentEvent => ({
    ...task,
    type: 'task_started',
    status,
  });
  const notified = (status: 'completed' | 'cancelled', error?: string): AgentEvent => ({
    ...task,
    type: 'task_notification',
    status,
    agentStatus: status,
    result: 'The logs are quiet.',
    ...(error ? { error } : {}),
    usage: null,
    costUsd: null,
    resultPath: null,
    durationMs: 4200,
  });

  it('puts a task agent in the background from its start, and its end in one line', () => {
    const view = viewOf([started(), runStart(child, 'explore', 'watch the logs', 'a1')]);
    expect(view.tasks.get('task_1')).toMatchObject({ status: 'running', agentId: 'child_1' });
    expect(view.agents.get('child_1')?.background).toBe(true);
    view.observe(result(child, 'completed'), 1000);
    // Its row waits for the task's notification, which says how the task ended.
    expect(view.entries).toEqual([]);
    view.observe(notified('completed'), 1100);
    expect(view.tasks.size).toBe(0);
    expect(view.agents.size).toBe(0);
    expect(view.entries.at(-1)).toMatchObject({
      kind: 'task',
      task: { agentType: 'explore', description: 'watch the logs', status: 'completed' },
    });
    expect(view.lastEndedTask).toBe('task_1');
  });

  it('moves a foreground child sent to the background (Ctrl+B) to the panel', () => {
    const view = viewOf([runStart(child, 'explore', 'map the code', 'a1')]);
    expect(view.agents.get('child_1')?.background).toBe(false);
    view.observe(started(), 10);
    expect(view.agents.get('child_1')?.background).toBe(true);
  });

  it('says a stopped task was stopped, with why', () => {
    const view = viewOf([started(), runStart(child, 'explore', 'watch the logs', 'a1')]);
    view.observe(notified('cancelled', 'Stopped by the user.\nmore'), 10);
    expect(view.entries.at(-1)).toMatchObject({
      kind: 'task',
      task: { status: 'cancelled', error: 'Stopped by the user.' },
    });
  });
});
