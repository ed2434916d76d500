// What the screen shows of a session, kept from its events: the finished entries (written once)
// and what is live (the main agent's streaming text and tool calls, running sub-agents, background
// tasks). Pure: no React, no timers, no I/O.
import type { AgentEvent, AgentEventOf } from '../../core/events.js';
import { textOf } from '../../core/messages.js';
import type { TaskKind } from '../../core/tasks.js';
import { addUsage, budgetTokens, emptyUsage, type Usage } from '../../core/usage.js';
import type { WorkflowEvent } from '../../core/workflow-events.js';
import { callSummary } from './call-summary.js';
import {
  type AgentRow,
  type Entry,
  firstLine,
  type NewEntry,
  type RunningTool,
  summaryOf,
  type TaskRow,
  type WorkflowRow,
} from './view-items.js';
import { WorkflowRows } from './workflow-rows.js';

export class SessionView {
  /** Finished entries, oldest first. Append-only until `clear()`. */
  readonly entries: Entry[] = [];
  /** The main agent's assistant text since its current message started. */
  streaming = '';
  /** The main agent's tool calls in flight, in the order they started. */
  readonly tools = new Map<string, RunningTool>();
  /** Sub-agents on screen, in the order they started. */
  readonly agents = new Map<string, AgentRow>();
  /** Background tasks that have not ended, in the order they started. */
  readonly tasks = new Map<string, TaskRow>();
  /** Workflow runs: one line each, their items' agents folded into it. */
  readonly workflows = new WorkflowRows();
  /** The task of the latest background task that ended: what Ctrl+O shows. */
  lastEndedTask: string | undefined;
  /** The task each background agent works for. */
  readonly #taskOfAgent = new Map<string, string>();
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
    this.workflows.observeAgent(event);
    if (this.workflows.isWorkflowEvent(event)) this.#observeWorkflow(event, now);
    else if (isTaskEvent(event)) this.#observeTask(event, now);
    else if (event.depth === 0) this.#observeMain(event, now);
    else this.#observeChild(event, now);
  }

  #observeWorkflow(event: AgentEvent & WorkflowEvent, now: number): void {
    const row = this.workflows.observe(event, now);
    if (event.type === 'workflow_end' && row?.endedInMs !== undefined) this.#workflowEnded(row);
    if (event.type !== 'workflow_start' || !row) return;
    // Its task may have said it started first.
    for (const task of this.tasks.values()) {
      if (task.kind !== 'local_workflow' || this.workflows.ofTask(task.taskId)) continue;
      if (this.workflows.claimTask(task.taskId, event.agentId, task.description)) return;
    }
  }

  /** The run and its task have both ended: one line in the conversation says how. */
  #workflowEnded(row: WorkflowRow): void {
    this.add({ kind: 'workflow', workflow: row, durationMs: row.endedInMs ?? 0 });
    this.workflows.forget(row.runId);
  }

  #observeTask(event: TaskEvent, now: number): void {
    // A workflow item's end is the workflow's business: its line counts how the item went.
    if (event.type === 'task_notification' && this.workflows.runOf(event.taskAgentId)) {
      this.tasks.delete(event.taskId);
      this.#taskOfAgent.delete(event.taskAgentId!);
      this.#forget(event.taskAgentId!);
      return;
    }
    switch (event.type) {
      case 'task_started': {
        if (event.kind === 'local_workflow') {
          this.workflows.claimTask(event.taskId, event.agentId, event.description);
        }
        this.tasks.set(event.taskId, {
          taskId: event.taskId,
          kind: event.kind,
          description: event.description,
          status: event.status,
          agentId: event.taskAgentId,
          startedAt: now,
          progress: undefined,
        });
        if (event.taskAgentId === null) return;
        this.#taskOfAgent.set(event.taskAgentId, event.taskId);
        // A foreground child sent to the background: its row moves to the panel.
        const row = this.agents.get(event.taskAgentId);
        if (row) this.#toBackground(row);
        return;
      }
      case 'task_progress': {
        const task = this.tasks.get(event.taskId);
        if (!task) return;
        task.status = event.status;
        task.progress = event.progress;
        return;
      }
      case 'task_notification': {
        this.tasks.delete(event.taskId);
        const agentId = event.taskAgentId;
        const row = agentId === null ? undefined : this.agents.get(agentId);
        if (agentId !== null) this.#taskOfAgent.delete(agentId);
        const workflow = this.workflows.ofTask(event.taskId);
        this.lastEndedTask = event.taskId;
        if (workflow) {
          // Its last events may come after the task's end: the line waits for `workflow_end`.
          workflow.endedInMs = event.durationMs;
          if (workflow.status !== 'running' || event.status === 'failed')
            this.#workflowEnded(workflow);
          return;
        }
        this.add({
          kind: 'task',
          task: {
            taskId: event.taskId,
            agentType: row?.agentType ?? KIND_WORD[event.kind],
            description: event.description,
            status: event.status,
            durationMs: event.durationMs,
            ...(event.error ? { error: firstLine(event.error) } : {}),
          },
        });
        if (row) this.#forget(row.agentId);
        return;
      }
    }
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
        background:
          parent?.background === true ||
          this.#taskOfAgent.has(event.agentId) ||
          this.workflows.runOf(event.agentId) !== undefined,
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
      case 'permission_wait':
        row.blockedOn = event.waiting ? event.toolName : undefined;
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
        // Nobody waits for a background agent's call: its end is news in the conversation (its
        // task's notification, for an agent that is a task).
        if (
          row.background &&
          !this.#taskOfAgent.has(row.agentId) &&
          !this.#hasBackgroundParent(row)
        ) {
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

type TaskEvent = AgentEventOf<'task_started' | 'task_progress' | 'task_notification'>;

function isTaskEvent(event: AgentEvent): event is TaskEvent {
  return (
    event.type === 'task_started' ||
    event.type === 'task_progress' ||
    event.type === 'task_notification'
  );
}

/** What a task line says for a task with no agent row. */
const KIND_WORD: Record<TaskKind, string> = {
  local_agent: 'agent',
  remote_agent: 'agent',
  local_bash: 'Bash',
  local_workflow: 'Workflow',
};
