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
