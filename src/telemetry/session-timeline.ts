// A finished session as a timeline: every agent with its place in the tree, when it ran, its
// model calls and tool calls as marks, its tokens and cost (own and subtree) and its
// conversation. Built from timed events, so it draws a transcript read back as well as a run.
import type { AgentEvent } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Usage } from '../core/usage.js';
import { type AgentSummary, AgentTree } from './agent-tree.js';

export interface TimelineTurn {
  turn: number;
  startMs: number;
  endMs: number;
  usage: Usage;
  costUsd: number | null;
  finishReason: string;
}

export interface TimelineTool {
  toolCallId: string;
  toolName: string;
  startMs: number;
  endMs: number;
  isError: boolean;
}

export interface TimelineAgent extends AgentSummary {
  model: string;
  parentToolCallId: string | null;
  startMs: number;
  endMs: number;
  turns: TimelineTurn[];
  tools: TimelineTool[];
  messages: Message[];
}

export interface SessionTimeline {
  sessionId: string;
  startMs: number;
  endMs: number;
  /** In start order, each parent before its children. */
  agents: TimelineAgent[];
  usage: Usage;
  costUsd: number | null;
}

interface Detail {
  model: string;
  parentToolCallId: string | null;
  lastMs: number;
  turns: TimelineTurn[];
  tools: TimelineTool[];
  messages: Message[];
}

export function buildTimeline(
  sessionId: string,
  events: ReadonlyArray<{ event: AgentEvent; at: number }>,
): SessionTimeline {
  const tree = new AgentTree();
  const details = new Map<string, Detail>();
  let startMs = events[0]?.at ?? 0;
  let endMs = startMs;
  for (const { event, at } of events) {
    tree.observe(event, at);
    startMs = Math.min(startMs, at);
    endMs = Math.max(endMs, at);
    if (event.type === 'run_start' && !details.has(event.agentId)) {
      details.set(event.agentId, {
        model: event.model,
        parentToolCallId: event.parentToolCallId ?? null,
        lastMs: at,
        turns: [],
        tools: [],
        messages: [],
      });
    }
    const detail = details.get(event.agentId);
    if (!detail) continue;
    detail.lastMs = Math.max(detail.lastMs, at);
    if (event.type === 'usage') {
      detail.turns.push({
        turn: event.turn,
        startMs: at - event.durationMs,
        endMs: at,
        usage: event.usage,
        costUsd: event.costUsd,
        finishReason: event.finishReason,
      });
    } else if (event.type === 'tool_end') {
      detail.tools.push({
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        startMs: at - event.durationMs,
        endMs: at,
        isError: event.isError,
      });
    } else if (event.type === 'message_end') {
      detail.messages.push(event.message);
    }
  }
  const agents = tree.agents(endMs).flatMap((summary): TimelineAgent[] => {
    const detail = details.get(summary.agentId);
    if (!detail) return [];
    // A record is written when its event reaches the reader, a moment after it happened; a
    // model call's own measured start may come first, and the bar starts there.
    const startMs = Math.min(summary.startedAt, ...detail.turns.map((turn) => turn.startMs));
    const end =
      summary.status === 'running' ? detail.lastMs : summary.startedAt + summary.durationMs;
    return [{ ...summary, ...detail, startMs, endMs: Math.max(end, startMs, detail.lastMs) }];
  });
  startMs = Math.min(startMs, ...agents.map((agent) => agent.startMs));
  return {
    sessionId,
    startMs,
    endMs: Math.max(endMs, ...agents.map((agent) => agent.endMs)),
    agents,
    usage: tree.totalUsage(),
    costUsd: tree.totalCostUsd(),
  };
}

/**
 * Each agent's children, siblings in the order their parent started them (`Agent#2` before
 * `Agent#10`), not the order their first records happen to carry; roots under `null`. An agent
 * whose parent is not in the session (a resumed run's main agent) is a root.
 */
export function childrenByParent(
  agents: readonly TimelineAgent[],
): Map<string | null, TimelineAgent[]> {
  const ids = new Set(agents.map((agent) => agent.agentId));
  const children = new Map<string | null, TimelineAgent[]>();
  for (const agent of agents) {
    const parent = agent.parentId !== null && ids.has(agent.parentId) ? agent.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), agent]);
  }
  for (const [parent, list] of children) {
    // Roots (runs of one session, resumed) keep their time order.
    if (parent !== null) {
      list.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
    }
  }
  return children;
}

/** The tree read top to bottom: each agent, then its children, with its depth below the root. */
export function treeOrder(
  agents: readonly TimelineAgent[],
): Array<{ agent: TimelineAgent; depth: number }> {
  const children = childrenByParent(agents);
  const ordered: Array<{ agent: TimelineAgent; depth: number }> = [];
  const visit = (agent: TimelineAgent, depth: number) => {
    ordered.push({ agent, depth });
    for (const child of children.get(agent.agentId) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(null) ?? []) visit(root, 0);
  return ordered;
}
