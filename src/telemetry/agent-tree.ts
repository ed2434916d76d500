// Follows a run's events and keeps one summary per agent, main agent first: what the JSON
// result's `agents` array reports (own and subtree usage), and what a live agent tree will draw.
import type { AgentEvent, AgentStatus } from '../core/events.js';
import type { TodoItem } from '../core/todo-list.js';
import { addUsage, emptyUsage, type Usage } from '../core/usage.js';
import { TodoLists } from './todo-lists.js';

export interface AgentSummary {
  agentId: string;
  parentId: string | null;
  /** The agent's path in the tree, e.g. `main/Agent#1/explore`. */
  path: string;
  agentType: string;
  description: string;
  depth: number;
  status: AgentStatus | 'running';
  background: boolean;
  /** The task of its (last) background run; null for a foreground agent. */
  taskId: string | null;
  numTurns: number;
  toolCalls: number;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
  /** The agent's own worktree; null when it had none (it may work in its parent's). */
  worktree: AgentWorktreeSummary | null;
  /** The value an agent with an output schema finished with; null otherwise. */
  structuredOutput: unknown;
  transcript: string | null;
  startedAt: number;
  /** This agent and all its descendants. */
  subtreeUsage: Usage;
  /** Null when the price of any agent in the subtree is unknown, as for the run's total. */
  subtreeCostUsd: number | null;
  /** The agent's latest TodoWrite list; null if it never wrote one. */
  todos: TodoItem[] | null;
}

export interface AgentWorktreeSummary {
  path: string;
  branch: string;
  /** It has changes and is kept; false once it was removed, or while the agent still runs. */
  changed: boolean;
}

export class AgentTree {
  readonly #agents = new Map<string, AgentSummary>();
  /** Background agents by id, from `task_started`, which comes before their `run_start`. */
  readonly #tasks = new Map<string, string>();
  /** What earlier runs of a continued agent counted, added to its next result's figures. */
  readonly #earlier = new Map<
    string,
    Pick<AgentSummary, 'numTurns' | 'toolCalls' | 'durationMs' | 'costUsd'>
  >();
  readonly #transcriptOf: (agentId: string) => string | null;
  readonly #todos = new TodoLists();

  constructor(options: { transcriptOf?: (agentId: string) => string | null } = {}) {
    this.#transcriptOf = options.transcriptOf ?? (() => null);
  }

  /** @param at when the event happened; now, for a live run. */
  observe(event: AgentEvent, at: number = Date.now()): void {
    if (event.type === 'task_started' && event.taskAgentId) {
      this.#tasks.set(event.taskAgentId, event.taskId);
      const known = this.#agents.get(event.taskAgentId);
      if (known) Object.assign(known, { background: true, taskId: event.taskId });
      return;
    }
    if (event.type === 'run_start') {
      const taskId = this.#tasks.get(event.agentId) ?? null;
      const known = this.#agents.get(event.agentId);
      // An agent continued (SendMessage, a resume) runs again: its counts go on.
      if (known) {
        const { numTurns, toolCalls, durationMs, costUsd } = known;
        this.#earlier.set(event.agentId, { numTurns, toolCalls, durationMs, costUsd });
        Object.assign(known, { status: 'running', background: taskId !== null, taskId });
        known.startedAt = at - durationMs;
        return;
      }
      this.#agents.set(event.agentId, {
        agentId: event.agentId,
        parentId: event.parentId,
        path: event.path,
        agentType: event.agentType,
        description: event.description,
        depth: event.depth,
        status: 'running',
        background: taskId !== null,
        taskId,
        numTurns: 0,
        toolCalls: 0,
        usage: emptyUsage(),
        costUsd: null,
        durationMs: 0,
        worktree: null,
        structuredOutput: null,
        transcript: this.#transcriptOf(event.agentId),
        startedAt: at,
        subtreeUsage: emptyUsage(),
        subtreeCostUsd: null,
        todos: null,
      });
      return;
    }
    const agent = this.#agents.get(event.agentId);
    if (!agent) return;
    const todos = this.#todos.observe(event);
    if (todos) agent.todos = todos.todos;
    if (event.type === 'usage') {
      addUsage(agent.usage, event.usage);
      if (event.costUsd !== null) agent.costUsd = (agent.costUsd ?? 0) + event.costUsd;
      agent.numTurns++;
    } else if (event.type === 'tool_start') {
      agent.toolCalls++;
    } else if (event.type === 'worktree') {
      agent.worktree = { path: event.path, branch: event.branch, changed: event.changed };
    } else if (event.type === 'result') {
      // A continued agent's result covers its last run: earlier runs are added to it.
      const earlier = this.#earlier.get(event.agentId);
      agent.status = event.status;
      agent.numTurns = (earlier?.numTurns ?? 0) + event.numTurns;
      agent.toolCalls = (earlier?.toolCalls ?? 0) + event.toolCalls;
      agent.durationMs = (earlier?.durationMs ?? 0) + event.durationMs;
      agent.costUsd =
        event.costUsd === null || (earlier && earlier.costUsd === null)
          ? null
          : (earlier?.costUsd ?? 0) + event.costUsd;
      agent.structuredOutput = event.structuredOutput ?? null;
    }
  }

  /**
   * Every agent seen, in the order they started (the main agent first), each with the usage and
   * cost of its subtree.
   */
  agents(now: number = Date.now()): AgentSummary[] {
    const agents = [...this.#agents.values()].map((agent) => ({
      ...agent,
      usage: { ...agent.usage },
      durationMs: agent.status === 'running' ? now - agent.startedAt : agent.durationMs,
      subtreeUsage: { ...agent.usage },
      subtreeCostUsd: agent.costUsd,
    }));
    const byId = new Map(agents.map((agent) => [agent.agentId, agent]));
    // A child starts after its parent, so adding each agent into its parent from the last
    // started to the first passes every descendant up the whole chain.
    for (const agent of agents.toReversed()) {
      const parent = agent.parentId === null ? undefined : byId.get(agent.parentId);
      if (!parent) continue;
      addUsage(parent.subtreeUsage, agent.subtreeUsage);
      parent.subtreeCostUsd =
        parent.subtreeCostUsd === null || agent.subtreeCostUsd === null
          ? null
          : parent.subtreeCostUsd + agent.subtreeCostUsd;
    }
    return agents;
  }

  /** Usage of the whole tree: each agent's own usage, added up. */
  totalUsage(): Usage {
    const total = emptyUsage();
    for (const agent of this.#agents.values()) addUsage(total, agent.usage);
    return total;
  }

  /** Null when the price of some agent's model is unknown: a partial sum would mislead. */
  totalCostUsd(): number | null {
    let total = 0;
    for (const agent of this.#agents.values()) {
      if (agent.costUsd === null) return null;
      total += agent.costUsd;
    }
    return total;
  }
}
