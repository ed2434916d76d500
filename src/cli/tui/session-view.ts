// What the screen shows of a session, kept from its events: the conversation so far (finished
// entries, written once and never redrawn) and what is live (the main agent's streaming text,
// its running tool calls, every sub-agent still running). Pure: no React, no timers, no I/O.
import type { AgentEvent, AgentStatus } from '../../core/events.js';
import { textOf } from '../../core/messages.js';
import { addUsage, budgetTokens, emptyUsage, type Usage } from '../../core/usage.js';
import { callSummary } from './call-summary.js';

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

export type EntryTone = 'info' | 'warning' | 'error' | 'success';

/** One finished item of the conversation, in the order it happened. */
export type Entry = { id: number } & (
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'tool'; summary: string; isError: boolean; durationMs: number; detail?: string }
  /** A finished sub-agent; `background` when it ended after the call that started it returned. */
  | { kind: 'agent'; agent: AgentSummaryLine; background?: boolean }
  | { kind: 'notice'; tone: EntryTone; text: string }
  /** Command output, shown as written (tables keep their columns). */
  | { kind: 'output'; title: string; text: string }
);

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
}

/** A tool call of the main agent that has not returned yet. */
export interface RunningTool {
  toolCallId: string;
  toolName: string;
  summary: string;
  startedAt: number;
}

export class SessionView {
  /** Finished entries, oldest first. Append-only until `clear()`. */
  readonly entries: Entry[] = [];
  /** The main agent's assistant text since its current message started. */
  streaming = '';
  /** The main agent's tool calls in flight, in the order they started. */
  readonly tools = new Map<string, RunningTool>();
  /** Sub-agents on screen, in the order they started. */
  readonly agents = new Map<string, AgentRow>();
  /** Usage of every agent of the session. */
  readonly usage: Usage = emptyUsage();
  /** Null once some model's price was unknown. */
  costUsd: number | null = 0;
  /** Bumped on every change. */
  version = 0;
  /** Bumped by `clear()`: the conversation on screen starts again. */
  epoch = 0;
  #written: Entry[] = [];
  readonly #cwd: string;
  #nextId = 1;

  constructor(options: { cwd: string }) {
    this.#cwd = options.cwd;
  }

  add(entry: NewEntry): void {
    this.entries.push({ ...entry, id: this.#nextId++ } as Entry);
    this.version++;
  }

  /** Forgets the conversation on screen (`/clear`); what is running stays. */
  clear(): void {
    this.entries.length = 0;
    this.epoch++;
    this.version++;
  }

  /** The entries as an array that is new whenever one was added: what Ink's <Static> needs. */
  written(): Entry[] {
    if (this.#written.length !== this.entries.length || this.#written[0] !== this.entries[0]) {
      this.#written = [...this.entries];
    }
    return this.#written;
  }

  /** @param now when the event happened (epoch ms). */
  observe(event: AgentEvent, now: number): void {
    this.version++;
    if (event.type === 'usage') {
      addUsage(this.usage, event.usage);
      this.costUsd =
        this.costUsd === null || event.costUsd === null ? null : this.costUsd + event.costUsd;
    }
    if (event.depth === 0) this.#observeMain(event, now);
    else this.#observeChild(event, now);
  }

  #observeMain(event: AgentEvent, now: number): void {
    switch (event.type) {
      case 'message_start':
        this.streaming = '';
        return;
      case 'message_delta':
        this.streaming += event.text;
        return;
      case 'message_end': {
        if (event.message.role !== 'assistant') return;
        const text = textOf(event.message).trim();
        this.streaming = '';
        if (text) this.add({ kind: 'assistant', text });
        return;
      }
      case 'retry':
        this.streaming = '';
        this.add({
          kind: 'notice',
          tone: 'warning',
          text: `retrying in ${Math.round(event.delayMs / 1000)}s (attempt ${event.attempt}): ${event.error}`,
        });
        return;
      case 'tool_start':
        this.tools.set(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          summary: callSummary(event.toolName, event.input, this.#cwd),
          startedAt: now,
        });
        return;
      case 'tool_end':
        this.#mainToolEnded(event);
        return;
      case 'warning':
        this.add({ kind: 'notice', tone: 'warning', text: event.message });
        return;
      case 'result':
        if (this.streaming.trim()) this.add({ kind: 'assistant', text: this.streaming.trim() });
        this.streaming = '';
        this.tools.clear();
        if (event.status === 'cancelled') {
          this.add({ kind: 'notice', tone: 'warning', text: 'Interrupted.' });
        } else if (event.isError) {
          this.add({ kind: 'notice', tone: 'error', text: event.error ?? event.status });
        }
        return;
      default:
        return;
    }
  }

  #mainToolEnded(event: Extract<AgentEvent, { type: 'tool_end' }>): void {
    const call = this.tools.get(event.toolCallId);
    this.tools.delete(event.toolCallId);
    const children = [...this.agents.values()].filter(
      (row) => row.parentId === event.agentId && row.parentToolCallId === event.toolCallId,
    );
    const running = children.filter((row) => row.status === 'running');
    for (const child of children) {
      if (child.status === 'running') continue;
      this.add({ kind: 'agent', agent: summaryOf(child) });
      this.#forget(child.agentId);
    }
    if (children.length > 0 && running.length === 0) return;
    // A child still running when its call returned goes on in the background.
    for (const child of running) this.#toBackground(child);
    const summary = call?.summary ?? event.toolName;
    this.add({
      kind: 'tool',
      summary: running.length > 0 ? `${summary} (in the background)` : summary,
      isError: event.isError,
      durationMs: event.durationMs,
      // A refused call says why and what would allow it; another error, its first line.
      ...(event.isError ? { detail: event.denial ?? firstLine(event.output) } : {}),
    });
  }

  #observeChild(event: AgentEvent, now: number): void {
    if (event.type === 'run_start') {
      const parent = event.parentId === null ? undefined : this.agents.get(event.parentId);
      this.agents.set(event.agentId, {
        agentId: event.agentId,
        parentId: event.parentId,
        parentToolCallId: event.parentToolCallId,
        agentType: event.agentType,
        description: event.description,
        depth: event.depth,
        startedAt: now,
        status: 'running',
        turns: 0,
        toolCalls: 0,
        tokens: 0,
        durationMs: undefined,
        error: undefined,
        background: parent?.background ?? false,
        runningTools: new Map(),
        state: 'thinking',
      });
      return;
    }
    const row = this.agents.get(event.agentId);
    if (!row) return;
    switch (event.type) {
      case 'turn_start':
        row.turns = event.turn;
        row.state = 'thinking';
        return;
      case 'usage':
        row.tokens += budgetTokens(event.usage);
        return;
      case 'retry':
        row.state = `retrying (attempt ${event.attempt})`;
        return;
      case 'tool_start':
        row.toolCalls++;
        row.runningTools.set(event.toolCallId, callSummary(event.toolName, event.input, this.#cwd));
        return;
      case 'tool_end':
        row.runningTools.delete(event.toolCallId);
        this.#childToolEnded(row, event.toolCallId);
        return;
      case 'result':
        row.status = event.status;
        row.turns = event.numTurns;
        row.toolCalls = event.toolCalls;
        row.durationMs = event.durationMs;
        row.error = event.isError ? event.error : undefined;
        row.runningTools.clear();
        // Nobody waits for a background agent's call: its end is news in the conversation.
        if (row.background && !this.#hasBackgroundParent(row)) {
          this.add({ kind: 'agent', agent: summaryOf(row), background: true });
          this.#forget(row.agentId);
        }
        return;
      default:
        return;
    }
  }

  /** A grandchild whose call returned: collapsed into its parent's count, or gone to the background. */
  #childToolEnded(parent: AgentRow, toolCallId: string): void {
    for (const child of this.agents.values()) {
      if (child.parentId !== parent.agentId || child.parentToolCallId !== toolCallId) continue;
      if (child.status === 'running') this.#toBackground(child);
    }
  }

  /** Whether the row's parent is itself a background agent still on screen (it reports it). */
  #hasBackgroundParent(row: AgentRow): boolean {
    const parent = row.parentId === null ? undefined : this.agents.get(row.parentId);
    return parent?.background === true && parent.status === 'running';
  }

  #toBackground(row: AgentRow): void {
    row.background = true;
    for (const child of this.agents.values()) {
      if (child.parentId === row.agentId) this.#toBackground(child);
    }
  }

  /** Drops a finished agent and everything it started from the screen. */
  #forget(agentId: string): void {
    this.agents.delete(agentId);
    for (const child of [...this.agents.values()]) {
      if (child.parentId === agentId && child.status !== 'running') this.#forget(child.agentId);
    }
  }
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
  let latest: string | undefined;
  for (const summary of row.runningTools.values()) latest = summary;
  return latest ?? row.state;
}

function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? '').trim();
}
