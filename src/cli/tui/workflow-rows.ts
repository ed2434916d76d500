// The workflow runs on screen, kept from their `workflow_*` events (events of the agent that
// called Workflow): each run's phase, its items done, running, failed and blocked, and what its
// items' agents spent so far. It also knows which agents are items, so their rows and task
// lines fold into the run's one line. Pure, like the SessionView that owns it.
import type { AgentEvent } from '../../core/events.js';
import { budgetTokens } from '../../core/usage.js';
import type { WorkflowEvent } from '../../core/workflow-events.js';
import type { ItemCounts, WorkflowRow } from './view-items.js';

type ItemState = 'running' | 'blocked' | 'done' | 'failed' | 'paused';

export class WorkflowRows {
  /** Runs in the order they started; ended ones until their task's line is written. */
  readonly rows = new Map<string, WorkflowRow>();
  readonly #items = new Map<string, Map<string, ItemState>>();
  /** Each item's agent (and any agent it started), by agent id: the run it works for. */
  readonly #runOfAgent = new Map<string, string>();

  isWorkflowEvent(event: AgentEvent): event is AgentEvent & WorkflowEvent {
    return event.type.startsWith('workflow_');
  }

  /** The run an agent works for, when it is a workflow item or below one. */
  runOf(agentId: string | null | undefined): string | undefined {
    return agentId == null ? undefined : this.#runOfAgent.get(agentId);
  }

  /** @param now when the event happened (epoch ms). */
  observe(event: AgentEvent & WorkflowEvent, now: number): WorkflowRow | undefined {
    if (event.type === 'workflow_start') {
      const row: WorkflowRow = {
        runId: event.runId,
        name: event.name,
        ownerId: event.agentId,
        taskId: undefined,
        startedAt: now,
        phase: undefined,
        counts: { done: 0, running: 0, failed: 0, blocked: 0, paused: 0 },
        tokens: 0,
        costUsd: 0,
        status: 'running',
        reason: undefined,
      };
      this.rows.set(event.runId, row);
      this.#items.set(event.runId, new Map());
      return row;
    }
    const row = this.rows.get(event.runId);
    if (!row) return undefined;
    switch (event.type) {
      case 'workflow_phase':
        row.phase = event.title;
        break;
      case 'workflow_item': {
        if (event.itemAgentId) this.#runOfAgent.set(event.itemAgentId, event.runId);
        const items = this.#items.get(event.runId)!;
        items.set(`${event.key}#${event.occurrence}`, stateOf(event.status));
        row.counts = countsOf(items);
        break;
      }
      case 'workflow_end':
        row.status = event.status;
        row.reason = event.reason;
        break;
      default:
        break;
    }
    return row;
  }

  /** An agent started by an item's agent works for the same run; its spending counts there. */
  observeAgent(event: AgentEvent): void {
    if (event.type === 'run_start') {
      const run = this.runOf(event.parentId);
      if (run !== undefined) this.#runOfAgent.set(event.agentId, run);
      return;
    }
    if (event.type !== 'usage') return;
    const row = this.rows.get(this.runOf(event.agentId) ?? '');
    if (!row) return;
    row.tokens += budgetTokens(event.usage);
    row.costUsd =
      row.costUsd === null || event.costUsd === null ? null : row.costUsd + event.costUsd;
  }

  /** Ties a workflow's background task to its run (the task says `workflow <name>`). */
  claimTask(taskId: string, ownerId: string, description: string): WorkflowRow | undefined {
    for (const row of this.rows.values()) {
      if (row.taskId !== undefined || row.ownerId !== ownerId) continue;
      if (description !== `workflow ${row.name}`) continue;
      row.taskId = taskId;
      return row;
    }
    return undefined;
  }

  /** The row of a workflow task, once tied. */
  ofTask(taskId: string): WorkflowRow | undefined {
    for (const row of this.rows.values()) if (row.taskId === taskId) return row;
    return undefined;
  }

  forget(runId: string): void {
    this.rows.delete(runId);
    this.#items.delete(runId);
    for (const [agentId, run] of this.#runOfAgent)
      if (run === runId) this.#runOfAgent.delete(agentId);
  }
}

function stateOf(status: Extract<WorkflowEvent, { type: 'workflow_item' }>['status']): ItemState {
  switch (status) {
    case 'completed':
    case 'cached':
      return 'done';
    case 'failed':
    case 'no_progress':
      return 'failed';
    case 'paused':
      return 'paused';
    case 'blocked':
      return 'blocked';
    default:
      return 'running';
  }
}

function countsOf(items: ReadonlyMap<string, ItemState>): ItemCounts {
  const counts: ItemCounts = { done: 0, running: 0, failed: 0, blocked: 0, paused: 0 };
  for (const state of items.values()) counts[state]++;
  return counts;
}
