// `remote_agent`: a background child on a worker, behind the run's RemoteExecutor. The manager
// keeps the lifecycle; this submits the child (idempotently: a restart attaches to it), reads its
// progress, cancels it on TaskStop, and turns its result into its owner's outcome.
import type { RemoteBackgroundChild } from '../agents/background-port.js';
import {
  failedRemote,
  remotePortOf,
  remoteRunStart,
  reportRemoteEnding,
  resultOf,
  withWorktreeNote,
} from '../agents/remote-child.js';
import type { RemotePort } from '../agents/remote-port.js';
import type { SubagentRuntime } from '../agents/subagent-runtime.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { RemoteProgress } from '../core/remote-executor.js';
import type { TaskControl, TaskOutcome } from '../core/tasks.js';
import { withTraceparent } from '../core/trace-context.js';
import { messageOf } from '../model/retry-policy.js';
import {
  AgentTaskExecutor,
  type AgentTaskRun,
  handedOff,
  outcomeOf,
  TASK_STATUS,
} from './agent-task-run.js';

/** How often a running remote child's progress is read. */
const PROGRESS_INTERVAL_MS = 1000;

export class RemoteAgentExecutor extends AgentTaskExecutor<RemoteBackgroundChild> {
  readonly kind = 'remote_agent' as const;
  /** Records what the child's events say (transcripts, the agent tree): the run's `onEvent`. */
  readonly #record: ((event: AgentEvent) => void) | undefined;

  constructor(runtime: SubagentRuntime, record?: (event: AgentEvent) => void) {
    super(runtime);
    this.#record = record;
  }

  start(taskId: string, child: RemoteBackgroundChild, control: TaskControl): void {
    this.track(taskId, 'pending', (run) => this.#run(taskId, run, child, control));
  }

  async #run(
    taskId: string,
    run: AgentTaskRun,
    child: RemoteBackgroundChild,
    control: TaskControl,
  ): Promise<TaskOutcome> {
    const { spec } = child;
    const port = remotePortOf(this.runtime, String(spec.definition.name));
    const sink = (event: AgentEvent) => {
      this.#record?.(event);
      control.emit(event);
    };
    if (typeof port === 'string') return outcome(failedRemote(spec, port), '', null);
    // Its ending also goes to the session's durable inbox: a parent that was down then gets it.
    const { inboxKey } = port;
    const submitted = inboxKey ? { ...spec, notify: { inbox: inboxKey, taskId } } : spec;
    sink(remoteRunStart(spec, child.parentToolCallId));
    this.runtime.directory.startedRemote(
      {
        agentId: spec.agentId,
        parentId: spec.parentId,
        depth: spec.depth,
        agentType: String(spec.definition.name),
        description: spec.description,
        path: spec.agentPath,
      },
      { name: child.name, background: true, taskId },
    );
    let result: RunResult;
    const polling = new AbortController();
    try {
      // Ended while no process was attached (a resumed session), and posted to the durable
      // inbox: that is its result, even once the engine has forgotten the child itself.
      const posted = inboxKey ? await this.#posted(port, inboxKey, taskId) : undefined;
      if (posted) return await this.#ended(port, taskId, run, posted, sink, control.signal);
      await port.executor.submit(
        await withTraceparent(submitted, this.runtime.traceContext),
        control.signal,
      );
      run.status = 'running';
      control.running();
      void this.#follow(port, spec.agentId, run, control, polling.signal);
      // TaskStop aborts the task's signal: the child is cancelled then, and its end awaited.
      result = await resultOf(port.executor, spec.agentId, control.signal);
    } catch (error) {
      result = failedRemote(
        spec,
        `The remote ${String(spec.definition.name)} agent could not be run: ${messageOf(error)}`,
      );
    } finally {
      polling.abort();
    }
    return this.#ended(port, taskId, run, result, sink, control.signal);
  }

  /** Its ending reported, handed off, and forgotten by the durable inbox. */
  async #ended(
    port: RemotePort,
    taskId: string,
    run: AgentTaskRun,
    result: RunResult,
    sink: (event: AgentEvent) => void,
    signal: AbortSignal,
  ): Promise<TaskOutcome> {
    const { inboxKey } = port;
    run.status = TASK_STATUS[result.status];
    reportRemoteEnding(result, sink);
    this.runtime.directory.ended(result);
    const handed = withWorktreeNote(await handedOff(result, this.runtime, signal, sink), result);
    const text = typeof handed === 'string' ? handed : handed.output;
    // The ending is in this run's task store now, which delivers it exactly once: the durable
    // inbox needs to keep it no longer.
    if (inboxKey) port.executor.acknowledge(inboxKey, taskId).catch(() => {});
    return outcome(result, text, this.runtime.transcriptPathFor(result.agentId) ?? null);
  }

  async #posted(
    port: RemotePort,
    inboxKey: string,
    taskId: string,
  ): Promise<RunResult | undefined> {
    const endings = await port.executor.inbox(inboxKey).catch(() => []);
    return endings?.find((ending) => ending.taskId === taskId)?.result;
  }

  /** Reads the child's progress about once a second while it runs, for TaskOutput and the store. */
  async #follow(
    port: RemotePort,
    agentId: string,
    run: AgentTaskRun,
    control: TaskControl,
    stop: AbortSignal,
  ): Promise<void> {
    while (!stop.aborted) {
      await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS));
      if (stop.aborted) return;
      const progress: RemoteProgress | undefined = await port.executor
        .progress(agentId, stop)
        .catch(() => undefined);
      if (!progress || stop.aborted) continue;
      run.lastText = progress.lastText;
      control.progress({
        turns: progress.turns,
        toolCalls: progress.toolCalls,
        tokens: progress.tokens,
        lastActivityAt: progress.lastActivityAt,
        lastToolName: progress.lastToolName,
      });
    }
  }
}

function outcome(result: RunResult, text: string, transcript: string | null): TaskOutcome {
  return outcomeOf({ result }, text, transcript);
}
