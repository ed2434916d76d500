import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/events.js';
import { emptyUsage } from '../core/usage.js';
import { AgentTree } from './agent-tree.js';

const start = (agentId: string, parentId: string | null, depth: number): AgentEvent => ({
  type: 'run_start',
  agentId,
  parentId,
  depth,
  agentType: depth === 0 ? 'main' : 'explore',
  description: '',
  model: 'm',
  tools: [],
  cwd: '/',
});
const usage = (agentId: string, costUsd: number | null, inputTokens: number): AgentEvent => ({
  type: 'usage',
  agentId,
  parentId: null,
  depth: 0,
  turn: 1,
  usage: { ...emptyUsage(), inputTokens },
  costUsd,
});

describe('AgentTree', () => {
  it('lists agents in start order and adds up the usage of the whole tree', () => {
    const tree = new AgentTree({ transcriptOf: (id) => `/t/${id}.jsonl` });
    for (const event of [
      start('main', null, 0),
      start('c1', 'main', 1),
      usage('main', 0.5, 10),
      usage('c1', 0.25, 5),
    ]) {
      tree.observe(event);
    }
    expect(tree.agents().map((agent) => [agent.agentId, agent.status, agent.transcript])).toEqual([
      ['main', 'running', '/t/main.jsonl'],
      ['c1', 'running', '/t/c1.jsonl'],
    ]);
    expect(tree.totalUsage().inputTokens).toBe(15);
    expect(tree.totalCostUsd()).toBe(0.75);
  });

  it('reports no total cost when the price of some agent is unknown', () => {
    const tree = new AgentTree();
    for (const event of [
      start('main', null, 0),
      start('c1', 'main', 1),
      usage('main', 0.5, 10),
      usage('c1', null, 5),
    ]) {
      tree.observe(event);
    }
    expect(tree.totalCostUsd()).toBeNull();
  });
});

describe('AgentTree and background agents', () => {
  const taskStarted = (taskId: string, taskAgentId: string): AgentEvent => ({
    type: 'task_started',
    agentId: 'main',
    parentId: null,
    depth: 0,
    taskId,
    kind: 'local_agent',
    taskAgentId,
    description: 'd',
    name: null,
    status: 'running',
  });
  const ended = (agentId: string, numTurns: number, toolCalls: number): AgentEvent => ({
    type: 'result',
    agentId,
    parentId: 'main',
    depth: 1,
    subtype: 'success',
    status: 'completed',
    isError: false,
    result: '',
    agentType: 'explore',
    description: '',
    numTurns,
    toolCalls,
    durationMs: 10,
    usage: emptyUsage(),
    costUsd: null,
    messages: [],
  });

  it('marks a background agent with its task, and keeps counting when it is continued', () => {
    const tree = new AgentTree();
    for (const event of [
      start('main', null, 0),
      start('fg', 'main', 1),
      taskStarted('task_1', 'bg'),
      start('bg', 'main', 1),
      ended('bg', 2, 3),
      taskStarted('task_2', 'bg'),
      start('bg', 'main', 1),
      ended('bg', 1, 1),
    ]) {
      tree.observe(event);
    }
    const [, fg, bg] = tree.agents();
    expect(fg).toMatchObject({ background: false, taskId: null });
    expect(bg).toMatchObject({
      background: true,
      taskId: 'task_2',
      status: 'completed',
      numTurns: 3,
      toolCalls: 4,
      durationMs: 20,
    });
    expect(tree.agents()).toHaveLength(3);
  });
});
