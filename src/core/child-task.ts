// A child agent run as a background task, as tasks/ sees it: what its task record says of it,
// and one call that runs it to its end. agents/ implements it (agents/child-run.ts for a child in
// this process, agents/remote-child-task.ts for one on a worker), so tasks/ never imports agents/.
import type { AgentEvent, AgentStatus, RunResult } from './events.js';
import type { TaskMeta, TaskOutcome, TaskProgress, TaskStatus } from './tasks.js';

/** One child, to run as a task: what its record says of it, and its run to the end. */
export interface ChildTask {
  /** The child's agent id: its own events are the task's progress. */
  readonly agentId: string;
  /** Its task record: kind, description, owner, agent, and the spec a restart needs. */
  meta(): TaskMeta;
  /** Runs it to its end (or takes over its run). Failures end up in the outcome, never thrown. */
  run(taskId: string, io: ChildTaskIO): Promise<TaskOutcome>;
}

/** What the task gives the child it runs: where its events go, what stops it, its state. */
export interface ChildTaskIO {
  /** Aborts when the task is stopped (TaskStop, the run cancelled). */
  readonly signal: AbortSignal;
  /**
   * Events of the child's loop here (and those below it) into the run's stream: its progress and
   * last text are read from them.
   */
  readonly emit: (event: AgentEvent) => void;
  /** Events made outside any loop here (a warning, a worktree report) into the run's stream. */
  readonly send: (event: AgentEvent) => void;
  /** It holds its slot and runs. */
  running(): void;
  /** Its run ended so: the task's status says it while its output is handed off. */
  ended(status: AgentStatus): void;
  /** How far a child whose loop runs elsewhere (a worker) got, and the text it wrote last. */
  progress(update: TaskProgress, lastText: string): void;
}

/** A task's status for how its agent's run ended: a limit ends it `completed`, with its report. */
export const TASK_STATUS: Record<AgentStatus, TaskOutcome['status']> = {
  completed: 'completed',
  max_turns: 'completed',
  budget: 'completed',
  failed: 'failed',
  stalled: 'failed',
  no_progress: 'failed',
  cancelled: 'cancelled',
};

/** `text` is what the owner reads: checked, cut to size, with a note when it stopped early. */
export function outcomeOf(result: RunResult, text: string, transcript: string | null): TaskOutcome {
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

/** A child task that ended without running: `status` and `error` say why. */
export function notRunOutcome(
  status: Extract<TaskStatus, 'failed' | 'cancelled'>,
  error: string,
  text = '',
): TaskOutcome {
  return {
    status,
    result: text,
    error,
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: null,
  };
}
