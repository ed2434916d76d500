// The words of background work: a task's kind, status, progress and outcome, the record the task
// store keeps, and the executor interface every kind of task runs behind (local agents, local
// shell commands, later remote agents on Restate).
import type { AgentEvent, AgentRef, AgentStatus } from './events.js';
import type { Usage } from './usage.js';

/** `remote_agent` is reserved for the Restate executor; `local_workflow` is a workflow run. */
export type TaskKind = 'local_agent' | 'local_bash' | 'remote_agent' | 'local_workflow';

/**
 * `pending` waits for a slot under `--max-parallel`; the last three are final. An agent stopped
 * by a limit (`max_turns`, `budget`) has `completed` with its report; a stalled or
 * `no_progress` one `failed`.
 */
export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export const FINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set([
  'completed',
  'failed',
  'cancelled',
]);

export interface TaskProgress {
  turns: number;
  toolCalls: number;
  /** Input (cached or not) plus output tokens of the task's agent. */
  tokens: number;
  /** Epoch ms of the last model output or tool activity; null before any. */
  lastActivityAt: number | null;
  lastToolName: string | null;
  /** What the agent waits for a person's answer on (`permission to use Bash`); null when it does not. */
  blockedOn?: string | null;
}

/** What a task list shows: `blocked` for a running agent that waits on a permission answer. */
export type ShownTaskStatus = TaskStatus | 'blocked';

export function shownTaskStatus(task: {
  status: TaskStatus;
  progress?: Pick<TaskProgress, 'blockedOn'>;
}): ShownTaskStatus {
  return task.status === 'running' && task.progress?.blockedOn ? 'blocked' : task.status;
}

/** How a task ended, as its executor reports it. */
export interface TaskOutcome {
  status: Extract<TaskStatus, 'completed' | 'failed' | 'cancelled'>;
  /** The final text (or the output so far when it was stopped). */
  result: string;
  /** Why it did not complete, or a note on a report cut short by a limit. */
  error?: string;
  /** How the agent's own run ended; null for a shell command. */
  agentStatus: AgentStatus | null;
  usage: Usage | null;
  costUsd: number | null;
  /** Where the whole output is: the agent's transcript, the command's output file. */
  resultPath: string | null;
}

/** One row of the task store, as every reader sees it. */
export interface TaskRecord {
  taskId: string;
  kind: TaskKind;
  /** The background agent; null for a shell command. */
  agentId: string | null;
  /** The agent that started the task (or sent the message that resumed it): notifications go to it. */
  owner: AgentRef;
  agentType: string | null;
  /** The `name` given at spawn, unique among live agents. */
  name: string | null;
  description: string;
  status: TaskStatus;
  agentStatus: AgentStatus | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  progress: TaskProgress;
  result: string | null;
  resultPath: string | null;
  error: string | null;
  usage: Usage | null;
  costUsd: number | null;
  /** When the owner received the notification; null until then. Makes delivery exactly-once. */
  notifiedAt: number | null;
  /** What a restart needs (prompt, definition, command), as the executor wrote it. */
  spec: unknown;
  /** 1, plus one for each restart after a crash. */
  attempt: number;
  /** The process (group) of a shell command, to stop what a crash left running. */
  pid: number | null;
}

/** What a new task is, besides what its executor runs. */
export interface TaskMeta {
  kind: TaskKind;
  description: string;
  owner: AgentRef;
  agentId?: string;
  agentType?: string;
  name?: string;
  /** Kept in the store for a restart; must be JSON. */
  spec?: unknown;
}

/** What the task manager gives a task while it runs. */
export interface TaskControl {
  readonly taskId: string;
  /** Aborts when the task is stopped (TaskStop, the run cancelled); the executor ends the work. */
  readonly signal: AbortSignal;
  /** The task left `pending`: it has its slot and its work has started (in process `pid`). */
  running(details?: { pid?: number }): void;
  /** How far it got; the manager writes it to the store at most about once a second. */
  progress(update: Partial<TaskProgress>): void;
  /** Passes an event of the task's agent on into the run's stream. */
  emit(event: AgentEvent): void;
}

/**
 * Runs one kind of task. The manager owns the lifecycle (store rows, notifications, stop);
 * the executor only does the work. Keyed by task id, so a task can be found again after a
 * restart: a remote executor answers `status` for work that went on while warren was down.
 */
export interface TaskExecutor<Spec = unknown> {
  readonly kind: TaskKind;
  /** Starts the work. Failures are not thrown: they end up in the outcome. */
  start(taskId: string, spec: Spec, control: TaskControl): void;
  /** Where a task stands as the executor knows it; undefined for one it does not know. */
  status(taskId: string): Promise<TaskStatus | undefined>;
  /** Asks the task to stop; its outcome then says `cancelled`, with what it had. */
  stop(taskId: string, reason: string): void;
  /** Resolves when the task ends. Rejects only for a task the executor does not know. */
  result(taskId: string): Promise<TaskOutcome>;
  /** What a running task has produced so far, for TaskOutput. */
  output(taskId: string): string;
}
