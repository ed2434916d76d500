// `local_agent`: a background child in this process. The same loop as a foreground child (driven
// by agents/drive-child.ts), started without anyone awaiting it: it takes a `--max-parallel`
// slot, reports progress from its events, and ends in an outcome the manager delivers.
import type { BackgroundChild } from '../agents/background-port.js';
import { announcingWorktree, finishChildWorktree } from '../agents/child-worktree.js';
import { driveChild } from '../agents/drive-child.js';
import { withNote } from '../agents/hand-off.js';
import { withPartial } from '../agents/run-subagent.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { TaskControl, TaskOutcome } from '../core/tasks.js';
import {
  AgentTaskExecutor,
  type AgentTaskRun,
  handedOff,
  outcomeOf,
  TASK_STATUS,
  trackedSink,
} from './agent-task-run.js';

export class LocalAgentExecutor extends AgentTaskExecutor<BackgroundChild> {
  readonly kind = 'local_agent' as const;

  start(taskId: string, child: BackgroundChild, control: TaskControl): void {
    this.track(taskId, 'pending', (run) => this.#run(run, { ...child, taskId }, control));
  }

  async #run(
    run: AgentTaskRun,
    child: BackgroundChild,
    control: TaskControl,
  ): Promise<TaskOutcome> {
    const outcome = await this.#drive(run, child, control);
    const { workspace } = child;
    if (!workspace) return outcome;
    // Its servers have stopped: the worktree is finished, and the note ends what the owner reads.
    const about = { description: child.options.description ?? '' };
    // Made outside the child's loop, and often after its owner's stream has ended: recorded too.
    const sink = (event: AgentEvent) => {
      child.options.onEvent?.(event);
      control.emit(event);
    };
    const { note } = await finishChildWorktree(workspace, refOf(child), about, sink);
    const result = withNote(outcome.result, note);
    return { ...outcome, result: typeof result === 'string' ? result : result.output };
  }

  async #drive(
    run: AgentTaskRun,
    child: BackgroundChild,
    control: TaskControl,
  ): Promise<TaskOutcome> {
    const runtime = this.runtime;
    const { agentId } = child.options;
    // A slot at once when one is free, so the task is running before the Agent call returns.
    if (!runtime.slots.tryAcquire(agentId)) {
      try {
        await runtime.slots.acquire(agentId, control.signal);
      } catch {
        await child.servers?.close();
        return cancelledBeforeStart();
      }
    }
    run.status = 'running';
    control.running();
    const { workspace } = child;
    const emit = workspace
      ? announcingWorktree(control.emit, workspace, refOf(child))
      : control.emit;
    try {
      const ending = await driveChild(
        runtime,
        { ...child, options: { ...child.options, signal: control.signal } },
        trackedSink(run, agentId, control, emit),
      );
      run.status = TASK_STATUS[ending.result.status];
      const handed = await handedOff(ending.result, runtime, control.signal, (warning) => {
        child.options.onEvent?.(warning);
        control.emit(warning);
      });
      const output = withPartial(handed, ending.partial);
      const text = typeof output === 'string' ? output : output.output;
      return outcomeOf(ending, text, runtime.transcriptPathFor(agentId) ?? null);
    } finally {
      await child.servers?.close();
      runtime.slots.release(agentId);
    }
  }
}

function refOf(child: BackgroundChild): AgentRef {
  const { agentId, parentId, depth } = child.options;
  return {
    agentId,
    parentId: parentId ?? child.owner.agentId,
    depth: depth ?? child.owner.depth + 1,
  };
}

function cancelledBeforeStart(): TaskOutcome {
  return {
    status: 'cancelled',
    result: '',
    error: 'Stopped before it started (it was waiting for a slot under --max-parallel).',
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: null,
  };
}
