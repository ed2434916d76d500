// A workflow run as a background task of its own (`local_workflow`): the Workflow tool returns
// its task id at once, the run goes on beside the agent, and its summary reaches the agent as a
// task notification. TaskStop stops it (paused, resumable); TaskOutput shows how far it got.
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { TaskControl, TaskExecutor, TaskOutcome, TaskStatus } from '../core/tasks.js';
import type { WorkflowRunResult } from './workflow-engine.js';
import type { WorkflowEvent } from './workflow-events.js';

/** What the task keeps in the store: the run it drives (resumed with `resumeFromRunId`). */
export interface WorkflowTaskSpec {
  runId: string;
}

/** Runs the workflow until it ends or pauses; `signal` stops it (paused). */
export type RunInTask = (
  signal: AbortSignal,
  onEvent: (event: WorkflowEvent) => void,
) => Promise<{ result: WorkflowRunResult; summary: string }>;

interface Running {
  status: TaskStatus;
  stopped: boolean;
  done: number;
  failed: number;
  /** The items running now (blocked ones too), by key and occurrence. */
  running: Set<string>;
  outcome: Promise<TaskOutcome>;
}

/** One executor per run: it holds the run's closure (the caller's spawner and context). */
export class WorkflowTaskExecutor implements TaskExecutor<WorkflowTaskSpec> {
  readonly kind = 'local_workflow' as const;
  readonly #runs = new Map<string, Running>();
  readonly #run: RunInTask;
  readonly #owner: AgentRef;
  readonly #onEvent: ((event: WorkflowEvent) => void) | undefined;
  /** The run's `onEvent`: the events are made outside any loop, and recorded as they are made. */
  readonly #record: ((event: AgentEvent) => void) | undefined;

  /** `owner`: the agent that called Workflow; the run's events go into the stream as its own. */
  constructor(
    run: RunInTask,
    owner: AgentRef,
    onEvent?: (event: WorkflowEvent) => void,
    record?: (event: AgentEvent) => void,
  ) {
    this.#run = run;
    this.#owner = owner;
    this.#onEvent = onEvent;
    this.#record = record;
  }

  start(taskId: string, spec: WorkflowTaskSpec, control: TaskControl): void {
    const running: Running = {
      status: 'running',
      stopped: false,
      done: 0,
      failed: 0,
      running: new Set(),
      outcome: Promise.resolve(notRun(spec.runId)),
    };
    this.#runs.set(taskId, running);
    control.running();
    const onEvent = (event: WorkflowEvent) => {
      count(running, event);
      // `toolCalls` counts the items that ended (warren tasks shows it as such).
      if (
        event.type === 'workflow_item' &&
        event.status !== 'running' &&
        event.status !== 'blocked'
      ) {
        control.progress({ toolCalls: running.done + running.failed, lastActivityAt: Date.now() });
      }
      this.#onEvent?.(event);
      const made: AgentEvent = { ...this.#owner, ...event };
      this.#record?.(made);
      control.emit(made);
    };
    control.signal.addEventListener('abort', () => (running.stopped = true), { once: true });
    running.outcome = this.#run(control.signal, onEvent).then(
      ({ result, summary }) => {
        control.progress({ tokens: result.spentTokens });
        running.status = taskStatusOf(result, running.stopped);
        return outcomeOf(running.status, result, summary);
      },
      (error: unknown) => {
        running.status = 'failed';
        return {
          ...notRun(spec.runId),
          error: messageOf(error),
        };
      },
    );
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    return this.#runs.get(taskId)?.status;
  }

  /** The manager aborts the task's signal: the run stops at once and ends `paused`. */
  stop(): void {}

  result(taskId: string): Promise<TaskOutcome> {
    const running = this.#runs.get(taskId);
    if (!running)
      return Promise.reject(new Error(`local_workflow: no task ${taskId} in this process`));
    return running.outcome;
  }

  output(taskId: string): string {
    const running = this.#runs.get(taskId);
    if (!running) return '';
    return `items so far: ${running.done} completed, ${running.failed} failed, ${running.running.size} running`;
  }
}

function count(running: Running, event: WorkflowEvent): void {
  if (event.type !== 'workflow_item') return;
  const slot = `${event.key}#${event.occurrence}`;
  // A blocked item, and the same item running again once answered, are one item.
  if (event.status === 'running' || event.status === 'blocked') {
    running.running.add(slot);
    return;
  }
  running.running.delete(slot);
  if (event.status === 'completed' || event.status === 'cached') running.done++;
  else running.failed++;
}

/** Stopped (TaskStop, the run's end) is `cancelled`; a script that failed `failed`; else completed. */
function taskStatusOf(result: WorkflowRunResult, stopped: boolean): TaskOutcome['status'] {
  if (stopped) return 'cancelled';
  return result.status === 'failed' ? 'failed' : 'completed';
}

function outcomeOf(
  status: TaskOutcome['status'],
  result: WorkflowRunResult,
  summary: string,
): TaskOutcome {
  return {
    status,
    result: summary,
    ...(result.reason && { error: `${result.status}: ${result.reason}` }),
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: null,
  };
}

function notRun(runId: string): TaskOutcome {
  return {
    status: 'failed',
    result: '',
    error: `the workflow run ${runId} did not start`,
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: null,
  };
}
