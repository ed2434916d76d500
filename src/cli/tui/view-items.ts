// The items a session's screen is made of: the finished entries of the conversation, the rows
// of running sub-agents and background tasks, and how an agent's row reads as one summary line.
import type { AgentStatus } from '../../core/events.js';
import type { TaskKind, TaskProgress, TaskStatus } from '../../core/tasks.js';
import type { WorkflowEndStatus } from '../../core/workflow-events.js';

/** How one finished sub-agent is remembered in the conversation: a single summary line. */
export interface AgentSummaryLine {
  agentType: string;
  description: string;
  status: AgentStatus;
  turns: number;
  toolCalls: number;
  tokens: number;
  durationMs: number;
  /** Why it did not complete. */
  error?: string;
}

/** A tool call of the main agent once it returned. */
export interface FinishedToolCall {
  summary: string;
  isError: boolean;
  durationMs: number;
  /** The first line of its error, or of its denial. */
  detail?: string;
}

export type EntryTone = 'info' | 'warning' | 'error' | 'success';

/** One finished item of the conversation, in the order it happened. */
export type Entry = { id: number } & (
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | ({ kind: 'tool' } & FinishedToolCall)
  /** A finished sub-agent; `background` when it ended after the call that started it returned. */
  | { kind: 'agent'; agent: AgentSummaryLine; background?: boolean }
  /** A background task's end, as its notification says. */
  | { kind: 'task'; task: TaskEndLine }
  /** A workflow run's end: its counts and what it spent. */
  | { kind: 'workflow'; workflow: WorkflowRow; durationMs: number }
  | { kind: 'notice'; tone: EntryTone; text: string }
  /** Command output, shown as written (tables keep their columns). */
  | { kind: 'output'; title: string; text: string }
);

/** How a background task's end is shown: who did it, what, how it ended, how long it took. */
export interface TaskEndLine {
  taskId: string;
  /** The agent's type, or `Bash` for a shell command. */
  agentType: string;
  description: string;
  status: TaskStatus;
  durationMs: number;
  /** Why it did not complete, first line. */
  error?: string;
}

/** A background task while it runs (or waits for a slot), as its events tell. */
export interface TaskRow {
  taskId: string;
  kind: TaskKind;
  description: string;
  status: TaskStatus;
  /** The agent doing the work; null for a shell command. */
  agentId: string | null;
  startedAt: number;
  progress: TaskProgress | undefined;
}

export type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;

/** A sub-agent while it is on screen: running, or finished under a parent that still runs. */
export interface AgentRow {
  agentId: string;
  parentId: string | null;
  /** The parent's tool call that started it. */
  parentToolCallId: string | undefined;
  agentType: string;
  description: string;
  depth: number;
  startedAt: number;
  status: AgentStatus | 'running';
  turns: number;
  toolCalls: number;
  tokens: number;
  /** Set when it ends. */
  durationMs: number | undefined;
  error: string | undefined;
  /** The call that started it returned while it ran: it works on in the background. */
  background: boolean;
  /** Its tool calls in flight, by id: what it is doing now. */
  runningTools: Map<string, string>;
  /** `thinking`, or `retrying …` while the model is asked again. */
  state: string;
  /** The tool whose permission answer it waits for: the row says `blocked`. */
  blockedOn?: string;
}

/** A workflow run's items by where they are (`blocked`: its agent waits on a person). */
export interface ItemCounts {
  done: number;
  running: number;
  failed: number;
  blocked: number;
  paused: number;
}

/** A workflow run on screen: one line under its task, counted live from its events. */
export interface WorkflowRow {
  runId: string;
  name: string;
  /** The agent that called Workflow. */
  ownerId: string;
  /** Its background task, once tied to it. */
  taskId: string | undefined;
  startedAt: number;
  /** The script's latest `phase()`. */
  phase: string | undefined;
  counts: ItemCounts;
  /** What its items' agents spent in this process. */
  tokens: number;
  /** Null once some model's price was unknown. */
  costUsd: number | null;
  status: WorkflowEndStatus | 'running';
  reason: string | undefined;
  /** Set when its task ended: how long it ran. */
  endedInMs?: number;
}

/** A tool call of the main agent that has not returned yet. */
export interface RunningTool {
  toolCallId: string;
  toolName: string;
  summary: string;
  startedAt: number;
}

export function summaryOf(row: AgentRow): AgentSummaryLine {
  return {
    agentType: row.agentType,
    description: row.description,
    status: row.status === 'running' ? 'cancelled' : row.status,
    turns: row.turns,
    toolCalls: row.toolCalls,
    tokens: row.tokens,
    durationMs: row.durationMs ?? 0,
    ...(row.error ? { error: firstLine(row.error) } : {}),
  };
}

/** What a running agent is doing now: its latest tool call in flight, or its model state. */
export function activityOf(row: AgentRow): string {
  if (row.blockedOn) return `blocked: waiting for permission to use ${row.blockedOn}`;
  let latest: string | undefined;
  for (const summary of row.runningTools.values()) latest = summary;
  return latest ?? row.state;
}

export function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? '').trim();
}
