// `local_agent` for a foreground child sent to the background while it ran (Ctrl+B): it already
// holds its slot and its loop runs, so the task only takes over its events and its stop, then
// turns its ending into the outcome the manager delivers.
import type { AdoptedChild } from '../agents/background-port.js';
import type { TaskControl, TaskOutcome } from '../core/tasks.js';
import { AgentTaskExecutor, outcomeOf, TASK_STATUS, trackedSink } from './agent-task-run.js';

export class AdoptedAgentExecutor extends AgentTaskExecutor<AdoptedChild> {
  readonly kind = 'local_agent' as const;

  start(taskId: string, child: AdoptedChild, control: TaskControl): void {
    this.track(taskId, 'running', (run) => {
      control.running();
      const sink = trackedSink(run, child.agentId, control, control.emit);
      return child.handOver(sink, control.signal).then(({ ending, output }): TaskOutcome => {
        const text = typeof output === 'string' ? output : output.output;
        if (!ending) return { ...neverRan(), result: text };
        run.status = TASK_STATUS[ending.result.status];
        return outcomeOf(ending, text, this.runtime.transcriptPathFor(child.agentId) ?? null);
      });
    });
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
