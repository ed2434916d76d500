// `local_agent`: a background child in this process. The same loop as a foreground child (driven
// by agents/drive-child.ts), started without anyone awaiting it: it takes a `--max-parallel`
// slot, reports progress from its events, and ends in an outcome the manager delivers.
import type { BackgroundChild } from '../agents/background-port.js';
import { announcingWorktree, finishChildWorktree } from '../agents/child-worktree.js';
import { type ChildEnding, driveChild } from '../agents/drive-child.js';
import { handOff } from '../agents/hand-off.js';
import { withNote, withPartial } from '../agents/run-subagent.js';
import type { SubagentRuntime } from '../agents/subagent-runtime.js';
import type { AgentRef, AgentStatus } from '../core/events.js';
import { textOf } from '../core/messages.js';
import type {
  TaskControl,
  TaskExecutor,
  TaskOutcome,
  TaskProgress,
  TaskStatus,
} from '../core/tasks.js';
import { budgetTokens } from '../core/usage.js';

interface LocalRun {
  status: TaskStatus;
  result: Promise<TaskOutcome>;
  /** The last thing the agent wrote: its last reply, or what it is streaming. */
  lastText: string;
  streaming: string;
}

export class LocalAgentExecutor implements TaskExecutor<BackgroundChild> {
  readonly kind = 'local_agent' as const;
  readonly #runtime: SubagentRuntime;
  readonly #runs = new Map<string, LocalRun>();

  constructor(runtime: SubagentRuntime) {
    this.#runtime = runtime;
  }

  start(taskId: string, child: BackgroundChild, control: TaskControl): void {
    const run: LocalRun = {
      status: 'pending',
      result: Promise.resolve(cancelledBeforeStart()),
      lastText: '',
      streaming: '',
    };
    this.#runs.set(taskId, run);
    run.result = this.#run(run, { ...child, taskId }, control).finally(() => {
      this.#runs.delete(taskId);
    });
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    return this.#runs.get(taskId)?.status;
  }

  stop(): void {
    // The manager aborts the task's signal, which the child follows; nothing more to do here.
  }

  result(taskId: string): Promise<TaskOutcome> {
    const run = this.#runs.get(taskId);
    if (!run) return Promise.reject(new Error(`local_agent: no task ${taskId} in this process`));
    return run.result;
  }

  output(taskId: string): string {
    const run = this.#runs.get(taskId);
    if (!run) return '';
    return run.streaming || run.lastText;
  }

  async #run(run: LocalRun, child: BackgroundChild, control: TaskControl): Promise<TaskOutcome> {
    const outcome = await this.#drive(run, child, control);
    const { workspace } = child;
    if (!workspace) return outcome;
    // Its servers have stopped: the worktree is finished, and the note ends what the owner reads.
    const about = { description: child.options.description ?? '' };
    const { note } = await finishChildWorktree(workspace, refOf(child), about, control.emit);
    const result = withNote(outcome.result, note);
    return { ...outcome, result: typeof result === 'string' ? result : result.output };
  }

  async #drive(run: LocalRun, child: BackgroundChild, control: TaskControl): Promise<TaskOutcome> {
    const runtime = this.#runtime;
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
    const progress: TaskProgress = {
      turns: 0,
      toolCalls: 0,
      tokens: 0,
      lastActivityAt: Date.now(),
      lastToolName: null,
    };
    const { workspace } = child;
    const emit = workspace
      ? announcingWorktree(control.emit, workspace, refOf(child))
      : control.emit;
    try {
      const ending = await driveChild(
        runtime,
        { ...child, options: { ...child.options, signal: control.signal } },
        (event) => {
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
            case 'tool_end':
            case 'turn_end':
              // State changes, never stream chunks: the manager throttles the writes further.
              progress.lastActivityAt = Date.now();
              control.progress(progress);
              return;
          }
        },
      );
      run.status = TASK_STATUS[ending.result.status];
      // What the owner reads passes the handoff check, as a foreground child's result does.
      const handed = await handOff(
        ending.result,
        runtime,
        runtime.background?.signal ?? control.signal,
      );
      const { parentId, depth } = ending.result;
      for (const message of handed.warnings) {
        const warning = { agentId, parentId, depth, type: 'warning' as const, message };
        child.options.onEvent?.(warning);
        control.emit(warning);
      }
      const output = withPartial(handed.output, ending.partial);
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

/** The task status of an agent's ending: a limit that stopped it still completed its report. */
export const TASK_STATUS: Record<AgentStatus, TaskOutcome['status']> = {
  completed: 'completed',
  max_turns: 'completed',
  budget: 'completed',
  failed: 'failed',
  stalled: 'failed',
  cancelled: 'cancelled',
};

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
