// What a task running an agent keeps as it goes, whoever started it (a background start, a
// foreground child sent to the background, a worker): its progress from the agent's events, the
// text it wrote last (for TaskOutput), and its ending as the outcome the task manager delivers.
import type { ChildEnding, ChildSink } from '../agents/drive-child.js';
import { handOff } from '../agents/hand-off.js';
import type { SubagentRuntime } from '../agents/subagent-runtime.js';
import type { AgentStatus, RunResult } from '../core/events.js';
import { textOf } from '../core/messages.js';
import type {
  TaskControl,
  TaskExecutor,
  TaskKind,
  TaskOutcome,
  TaskProgress,
  TaskStatus,
} from '../core/tasks.js';
import type { ToolOutput } from '../core/tool.js';
import { budgetTokens } from '../core/usage.js';

export interface AgentTaskRun {
  status: TaskStatus;
  /** The last thing the agent wrote: its last reply, or what it is streaming. */
  lastText: string;
  streaming: string;
}

/** A task's run, with its result once the work has started. */
type TrackedRun = AgentTaskRun & { result?: Promise<TaskOutcome> };

/**
 * What the agent executors share: the run's runtime, their runs by task id, and what `status`,
 * `result` and `output` read of them. Stopping is the task's signal, which the agent follows.
 */
export abstract class AgentTaskExecutor<Spec> implements TaskExecutor<Spec> {
  abstract readonly kind: TaskKind;
  protected readonly runtime: SubagentRuntime;
  readonly #runs = new Map<string, TrackedRun>();

  constructor(runtime: SubagentRuntime) {
    this.runtime = runtime;
  }

  abstract start(taskId: string, spec: Spec, control: TaskControl): void;

  /** Keeps a run of the task, starting at `status`, until `work` (its result) settles. */
  protected track(
    taskId: string,
    status: TaskStatus,
    work: (run: AgentTaskRun) => Promise<TaskOutcome>,
  ): void {
    const run: TrackedRun = { status, lastText: '', streaming: '' };
    this.#runs.set(taskId, run);
    run.result = work(run).finally(() => this.#runs.delete(taskId));
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    return this.#runs.get(taskId)?.status;
  }

  stop(): void {
    // The manager aborts the task's signal, which the agent follows; nothing more to do here.
  }

  result(taskId: string): Promise<TaskOutcome> {
    const result = this.#runs.get(taskId)?.result;
    return result ?? Promise.reject(new Error(`${this.kind}: no task ${taskId} in this process`));
  }

  output(taskId: string): string {
    const run = this.#runs.get(taskId);
    return run ? run.streaming || run.lastText : '';
  }
}

/** Events of the task's agent (and those below it) go to `emit`; its own feed its progress. */
export function trackedSink(
  run: AgentTaskRun,
  agentId: string,
  control: TaskControl,
  emit: ChildSink,
): ChildSink {
  const progress: TaskProgress = {
    turns: 0,
    toolCalls: 0,
    tokens: 0,
    lastActivityAt: Date.now(),
    lastToolName: null,
  };
  return (event) => {
    emit(event);
    if (event.agentId !== agentId) return;
    switch (event.type) {
      case 'message_delta':
        run.streaming += event.text;
        return;
      case 'message_end':
        run.streaming = '';
        if (event.message.role === 'assistant') run.lastText = textOf(event.message);
        return;
      case 'usage':
        progress.turns = event.turn;
        progress.tokens += budgetTokens(event.usage);
        return;
      case 'tool_start':
        progress.toolCalls++;
        progress.lastToolName = event.toolName;
        return;
      case 'permission_wait':
        progress.blockedOn = event.waiting ? `permission to use ${event.toolName}` : null;
        control.progress(progress);
        return;
      case 'tool_end':
      case 'turn_end':
        // State changes, never stream chunks: the manager throttles the writes further.
        progress.lastActivityAt = Date.now();
        control.progress(progress);
        return;
    }
  };
}

export const TASK_STATUS: Record<AgentStatus, TaskOutcome['status']> = {
  completed: 'completed',
  max_turns: 'completed',
  budget: 'completed',
  failed: 'failed',
  stalled: 'failed',
  no_progress: 'failed',
  cancelled: 'cancelled',
};

/**
 * What the owner reads of the agent's result: it passes the handoff check, as a foreground
 * child's result does, and the check's warnings go to `warn`.
 */
export async function handedOff(
  result: RunResult,
  runtime: SubagentRuntime,
  signal: AbortSignal,
  warn: ChildSink,
): Promise<ToolOutput> {
  const handed = await handOff(result, runtime, runtime.background?.signal ?? signal);
  const { agentId, parentId, depth } = result;
  for (const message of handed.warnings)
    warn({ agentId, parentId, depth, type: 'warning', message });
  return handed.output;
}

/** `text` is what the owner reads: checked, cut to size, with a note when it stopped early. */
export function outcomeOf(
  { result }: Pick<ChildEnding, 'result'>,
  text: string,
  transcript: string | null,
): TaskOutcome {
  const status = TASK_STATUS[result.status];
  const stoppedEarly = result.status === 'max_turns' || result.status === 'budget';
  return {
    status,
    result: text,
    ...(result.error
      ? {
          error: stoppedEarly
            ? `Stopped early: ${result.error} The result is the report it gave then.`
            : result.error,
        }
      : {}),
    agentStatus: result.status,
    usage: result.usage,
    costUsd: result.costUsd,
    resultPath: transcript,
  };
}
