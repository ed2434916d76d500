// The executor of every task that runs an agent (`local_agent`, `remote_agent`), whoever started
// it: the child itself (a core/child-task.ts `ChildTask`, from agents/) runs to its end; the task
// keeps its progress from its events, the text it wrote last (for TaskOutput), and its status.
import type { ChildTask, ChildTaskIO } from '../core/child-task.js';
import { TASK_STATUS } from '../core/child-task.js';
import type { AgentEvent, AgentStatus } from '../core/events.js';
import { textOf } from '../core/messages.js';
import type {
  TaskControl,
  TaskExecutor,
  TaskKind,
  TaskOutcome,
  TaskProgress,
  TaskStatus,
} from '../core/tasks.js';
import { budgetTokens } from '../core/usage.js';

/** One task's run of its agent: what `status` and `output` read, and what the agent reports to. */
class AgentTaskRun implements ChildTaskIO {
  status: TaskStatus = 'pending';
  /** The last thing the agent wrote: its last reply, or what it is streaming. */
  lastText = '';
  streaming = '';
  result: Promise<TaskOutcome> | undefined;
  readonly signal: AbortSignal;
  readonly send: (event: AgentEvent) => void;
  readonly #control: TaskControl;
  readonly #agentId: string;
  readonly #progress: TaskProgress = {
    turns: 0,
    toolCalls: 0,
    tokens: 0,
    lastActivityAt: Date.now(),
    lastToolName: null,
  };

  constructor(control: TaskControl, agentId: string) {
    this.#control = control;
    this.#agentId = agentId;
    this.signal = control.signal;
    this.send = control.emit;
  }

  /** Events of the task's agent (and those below it) go on; its own feed its progress. */
  readonly emit = (event: AgentEvent): void => {
    this.#control.emit(event);
    if (event.agentId !== this.#agentId) return;
    const progress = this.#progress;
    switch (event.type) {
      case 'message_delta':
        this.streaming += event.text;
        return;
      case 'message_end':
        this.streaming = '';
        if (event.message.role === 'assistant') this.lastText = textOf(event.message);
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
        this.#control.progress(progress);
        return;
      case 'tool_end':
      case 'turn_end':
        // State changes, never stream chunks: the manager throttles the writes further.
        progress.lastActivityAt = Date.now();
        this.#control.progress(progress);
        return;
    }
  };

  running(): void {
    this.status = 'running';
    this.#control.running();
  }

  ended(status: AgentStatus): void {
    this.status = TASK_STATUS[status];
  }

  progress(update: TaskProgress, lastText: string): void {
    this.lastText = lastText;
    this.#control.progress(update);
  }
}

/**
 * Runs agent tasks of one kind: keeps each run by task id until it settles, for `status`,
 * `result` and `output`. Stopping is the task's signal, which the agent follows.
 */
export class AgentTaskExecutor implements TaskExecutor<ChildTask> {
  readonly kind: TaskKind;
  readonly #runs = new Map<string, AgentTaskRun>();

  constructor(kind: Extract<TaskKind, 'local_agent' | 'remote_agent'>) {
    this.kind = kind;
  }

  start(taskId: string, child: ChildTask, control: TaskControl): void {
    const run = new AgentTaskRun(control, child.agentId);
    this.#runs.set(taskId, run);
    run.result = child.run(taskId, run).finally(() => this.#runs.delete(taskId));
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
