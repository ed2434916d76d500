import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../core/events.js';
import { emptyUsage } from '../core/usage.js';
import { scriptedModel } from '../model/scripted-model.js';
import { query } from '../query.js';
import { resultEvent, runStartEvent } from '../testing/run-results.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { AgentTree } from './agent-tree.js';

const start = (agentId: string, parentId: string | null, depth: number): AgentEvent =>
  runStartEvent({ agentId, parentId, depth }, agentId);
const usage = (agentId: string, costUsd: number | null, inputTokens: number): AgentEvent => ({
  type: 'usage',
  agentId,
  parentId: null,
  depth: 0,
  turn: 1,
  usage: { ...emptyUsage(), inputTokens },
  costUsd,
  durationMs: 1,
  finishReason: 'stop',
});

const agentCall = (description: string) => ({
  name: 'Agent',
  input: { description, prompt: description },
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

  it('gives each agent the usage and cost of its subtree; null once any price in it is unknown', () => {
    const tree = new AgentTree();
    for (const event of [
      start('main', null, 0),
      start('a', 'main', 1),
      start('a1', 'a', 2),
      start('b', 'main', 1),
      usage('main', 1, 1),
      usage('a', 0.5, 10),
      usage('a1', 0.25, 100),
      usage('b', null, 1000),
    ]) {
      tree.observe(event);
    }
    const byId = new Map(tree.agents().map((agent) => [agent.agentId, agent]));
    expect(byId.get('a1')?.subtreeUsage.inputTokens).toBe(100);
    expect(byId.get('a')?.subtreeUsage.inputTokens).toBe(110);
    expect(byId.get('a')?.subtreeCostUsd).toBe(0.75);
    expect(byId.get('a')?.usage.inputTokens).toBe(10);
    expect(byId.get('b')?.subtreeCostUsd).toBeNull();
    expect(byId.get('main')?.subtreeUsage.inputTokens).toBe(1111);
    expect(byId.get('main')?.subtreeCostUsd).toBeNull();
  });

  it('sums a real scripted tree: two children, a grandchild; the root subtree is the run total', async () => {
    const model = scriptedModel([
      { match: { agent: '/^main$/' }, toolCalls: [agentCall('left'), agentCall('right')] },
      {
        match: { agent: '/^main/Agent#1/general-purpose$/' },
        toolCalls: [agentCall('deeper')],
        usage: { input: 20, output: 2 },
      },
      {
        match: { agent: '/Agent#1/general-purpose/Agent#1/general-purpose$/' },
        text: 'grandchild done',
        usage: { input: 300, output: 3 },
      },
      {
        match: { agent: '/^main/Agent#1/general-purpose$/' },
        text: 'left done',
        usage: { input: 4000, output: 4 },
      },
      {
        match: { agent: '/^main/Agent#2/general-purpose$/' },
        text: 'right done',
        usage: { input: 50000, output: 5 },
      },
      { match: { agent: '/^main$/' }, text: 'all done', usage: { input: 600000, output: 6 } },
    ]);
    const tree = new AgentTree();
    const run = query({
      prompt: 'fan out',
      options: { model, tools: [], cwd: await makeTempDir() },
    });
    for await (const event of run) tree.observe(event);
    model.assertComplete();

    const agents = tree.agents();
    const byPath = new Map(agents.map((agent) => [agent.path, agent]));
    expect([...byPath.keys()].sort()).toEqual([
      'main',
      'main/Agent#1/general-purpose',
      'main/Agent#1/general-purpose/Agent#1/general-purpose',
      'main/Agent#2/general-purpose',
    ]);
    const left = byPath.get('main/Agent#1/general-purpose')!;
    const grandchild = byPath.get('main/Agent#1/general-purpose/Agent#1/general-purpose')!;
    expect(left.usage.inputTokens).toBe(4020);
    expect(left.subtreeUsage.inputTokens).toBe(4320);
    expect(left.subtreeUsage.outputTokens).toBe(9);
    expect(grandchild.subtreeUsage).toEqual(grandchild.usage);
    const main = byPath.get('main')!;
    expect(main.subtreeUsage).toEqual(tree.totalUsage());
    expect(main.subtreeUsage.inputTokens).toBe(main.usage.inputTokens + 4320 + 50000);
    // The scripted model has no price: no cost anywhere, never a partial sum.
    expect(agents.map((agent) => agent.subtreeCostUsd)).toEqual([null, null, null, null]);
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
  const ended = (agentId: string, numTurns: number, toolCalls: number): AgentEvent =>
    resultEvent({ agentId, parentId: 'main', depth: 1 }, { numTurns, toolCalls, durationMs: 10 });

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
