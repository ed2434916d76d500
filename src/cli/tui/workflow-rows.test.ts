// What the screen keeps of a workflow run from its events, whichever order the run's events and
// its tasks' events arrive in (they travel by different paths): one line under its task with
// the counts, its items' agents and tasks folded into it, one entry when both have ended.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/events.js';
import { emptyUsage } from '../../core/usage.js';
import type { ItemEventStatus } from '../../core/workflow-events.js';
import { runStartEvent } from '../../testing/run-results.js';
import { backgroundLines } from './live-tree.js';
import { SessionView } from './session-view.js';

const main = { agentId: 'main_1', parentId: null, depth: 0 };
const RUN = 'wf_0000abcd';

const workflowTask = (type: 'task_started' | 'task_notification'): AgentEvent => {
  const fields = {
    ...main,
    taskId: 'task_wf',
    kind: 'local_workflow',
    taskAgentId: null,
    description: 'workflow review',
    name: null,
  } as const;
  return type === 'task_started'
    ? { ...fields, type, status: 'running' }
    : {
        ...fields,
        type,
        status: 'completed',
        agentStatus: null,
        result: '{}',
        usage: null,
        costUsd: null,
        resultPath: null,
        durationMs: 9000,
      };
};
const itemTask = (agentId: string): AgentEvent => ({
  ...main,
  type: 'task_started',
  taskId: `task_${agentId}`,
  kind: 'local_agent',
  taskAgentId: agentId,
  description: agentId,
  name: null,
  status: 'running',
});
const start: AgentEvent = {
  ...main,
  type: 'workflow_start',
  runId: RUN,
  name: 'review',
  resumed: false,
};
const item = (n: number, status: ItemEventStatus, itemAgentId?: string): AgentEvent => ({
  ...main,
  type: 'workflow_item',
  runId: RUN,
  key: `k${n}`,
  occurrence: 0,
  label: `item ${n}`,
  status,
  ...(itemAgentId ? { itemAgentId } : {}),
});
const end: AgentEvent = {
  ...main,
  type: 'workflow_end',
  runId: RUN,
  status: 'completed',
  spentTokens: 30,
};
const usage = (agentId: string, tokens: number, costUsd: number): AgentEvent => ({
  agentId,
  parentId: 'main_1',
  depth: 1,
  type: 'usage',
  turn: 1,
  usage: { ...emptyUsage(), inputTokens: tokens },
  costUsd,
  durationMs: 5,
  finishReason: 'stop',
});

function viewOf(events: AgentEvent[]): SessionView {
  const view = new SessionView({ cwd: '/project' });
  for (const event of events) view.observe(event, 1000);
  return view;
}

describe('a workflow run on the screen', () => {
  it('is one line under its task, counting items done, running, blocked and failed', () => {
    const view = viewOf([
      workflowTask('task_started'),
      start,
      { ...main, type: 'workflow_phase', runId: RUN, title: 'reviewing' },
      itemTask('item_a'),
      item(1, 'running', 'item_a'),
      runStartEvent({ agentId: 'item_a', parentId: 'main_1', depth: 1 }, 'main/Workflow', {}),
      item(2, 'running', 'item_b'),
      item(3, 'running', 'item_c'),
      item(4, 'cached'),
      item(1, 'completed'),
      item(2, 'blocked'),
      item(3, 'failed'),
      usage('item_a', 100, 0.01),
      usage('item_b', 50, 0.02),
    ]);
    const lines = backgroundLines(view, 10);
    expect(lines.map((line) => line.kind)).toEqual(['workflow']);
    const [line] = lines;
    expect(line?.kind === 'workflow' && line.workflow).toMatchObject({
      name: 'review',
      phase: 'reviewing',
      counts: { done: 2, running: 0, blocked: 1, failed: 1, paused: 0 },
      tokens: 150,
      costUsd: 0.03,
    });
  });

  it('ties its task whichever comes first, and folds in an item task seen before its item', () => {
    const view = viewOf([
      itemTask('item_a'),
      start,
      workflowTask('task_started'),
      item(1, 'running', 'item_a'),
    ]);
    expect(backgroundLines(view, 10).map((line) => line.kind)).toEqual(['workflow']);
  });

  it('writes one line when both the run and its task have ended, in either order', () => {
    for (const order of [
      [workflowTask('task_notification'), end],
      [end, workflowTask('task_notification')],
    ]) {
      const view = viewOf([
        workflowTask('task_started'),
        start,
        item(1, 'running'),
        item(1, 'completed'),
        order[0]!,
      ]);
      expect(view.entries).toEqual([]);
      view.observe(order[1]!, 2000);
      expect(view.entries).toHaveLength(1);
      expect(view.entries[0]).toMatchObject({
        kind: 'workflow',
        durationMs: 9000,
        workflow: { status: 'completed', counts: { done: 1 } },
      });
      expect(backgroundLines(view, 10)).toEqual([]);
    }
  });
});
