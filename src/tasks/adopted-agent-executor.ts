// `local_agent` for a foreground child sent to the background while it ran (Ctrl+B): it already
// holds its slot and its loop runs, so the task only takes over its events and its stop, then
// turns its ending into the outcome the manager delivers.
import type { AdoptedChild } from '../agents/background-port.js';
import type { SubagentRuntime } from '../agents/subagent-runtime.js';
import type { TaskControl, TaskExecutor, TaskOutcome, TaskStatus } from '../core/tasks.js';
import { type AgentTaskRun, outcomeOf, TASK_STATUS, trackedSink } from './agent-task-run.js';

export class AdoptedAgentExecutor implements TaskExecutor<AdoptedChild> {
  readonly kind = 'local_agent' as const;
  readonly #runtime: SubagentRuntime;
  readonly #runs = new Map<string, AgentTaskRun>();

  constructor(runtime: SubagentRuntime) {
    this.#runtime = runtime;
  }

  start(taskId: string, child: AdoptedChild, control: TaskControl): void {
    const run: AgentTaskRun = {
      status: 'running',
      result: Promise.resolve(neverRan()),
      lastText: '',
      streaming: '',
    };
    this.#runs.set(taskId, run);
    control.running();
    const sink = trackedSink(run, child.agentId, control, control.emit);
    run.result = child
      .handOver(sink, control.signal)
      .then(({ ending, output }): TaskOutcome => {
        const text = typeof output === 'string' ? output : output.output;
        if (!ending) return { ...neverRan(), result: text };
        run.status = TASK_STATUS[ending.result.status];
        return outcomeOf(ending, text, this.#runtime.transcriptPathFor(child.agentId) ?? null);
      })
      .finally(() => {
        this.#runs.delete(taskId);
      });
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    return this.#runs.get(taskId)?.status;
  }

  stop(): void {
    // The manager aborts the task's signal, which the child follows now; nothing more to do.
  }

  result(taskId: string): Promise<TaskOutcome> {
    const run = this.#runs.get(taskId);
    if (!run) return Promise.reject(new Error(`local_agent: no task ${taskId} in this process`));
    return run.result;
  }

  output(taskId: string): string {
    const run = this.#runs.get(taskId);
    return run ? run.streaming || run.lastText : '';
  }
}

function neverRan(): TaskOutcome {
  return {
    status: 'failed',
    result: '',
    error: 'The agent ended before it started.',
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: null,
  };
}
