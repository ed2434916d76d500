// A background child on a worker (or an A2A agent) as its `remote_agent` task: submitted
// idempotently (a restart attaches to it), its progress read while it runs, cancelled when its
// task is stopped, and its ending reported and handed off as a local child's is.

import type { ChildTask, ChildTaskIO } from '../core/child-task.js';
import { outcomeOf } from '../core/child-task.js';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, AgentRef, RunResult } from '../core/events.js';
import type { RemoteChildSpec, RemoteProgress } from '../core/remote-executor.js';
import type { TaskMeta, TaskOutcome } from '../core/tasks.js';
import { withTraceparent } from '../core/trace-context.js';
import { handOff } from './hand-off.js';
import {
  failedRemote,
  remotePortOf,
  remoteRunStart,
  reportRemoteEnding,
  resultOf,
  withWorktreeNote,
} from './remote-ending.js';
import type { RemotePort } from './remote-port.js';
import type { SubagentRuntime } from './subagent-runtime.js';

/** How often a running remote child's progress is read. */
const PROGRESS_INTERVAL_MS = 1000;

export class RemoteChildTask implements ChildTask {
  readonly #runtime: SubagentRuntime;
  readonly #spec: RemoteChildSpec;
  readonly #owner: AgentRef;
  readonly #name: string | undefined;
  /** The call that started it, for its `run_start`; none when a resumed run attaches again. */
  readonly #parentToolCallId: string | undefined;
  /** Records what its events say (transcripts, the agent tree): the run's `onEvent`. */
  readonly #record: ((event: AgentEvent) => void) | undefined;

  constructor(
    runtime: SubagentRuntime,
    spec: RemoteChildSpec,
    started: {
      owner: AgentRef;
      name?: string | undefined;
      parentToolCallId?: string | undefined;
      record: ((event: AgentEvent) => void) | undefined;
    },
  ) {
    this.#runtime = runtime;
    this.#spec = spec;
    this.#owner = started.owner;
    this.#name = started.name;
    this.#parentToolCallId = started.parentToolCallId;
    this.#record = started.record;
  }

  get agentId(): string {
    return this.#spec.agentId;
  }

  meta(): TaskMeta {
    const spec = this.#spec;
    return {
      kind: 'remote_agent',
      description: spec.description,
      owner: this.#owner,
      agentId: spec.agentId,
      agentType: String(spec.definition.name),
      name: this.#name,
      // A resumed run attaches to the same child with it (the submit is idempotent).
      spec,
    };
  }

  async run(taskId: string, io: ChildTaskIO): Promise<TaskOutcome> {
    const spec = this.#spec;
    const port = remotePortOf(this.#runtime, String(spec.definition.name));
    // Its loop ran elsewhere: what its events say is recorded here, as they are passed on.
    const sink = (event: AgentEvent) => {
      this.#record?.(event);
      io.send(event);
    };
    if (typeof port === 'string') return outcomeOf(failedRemote(spec, port), '', null);
    // Its ending also goes to the session's durable inbox: a parent that was down then gets it.
    const { inboxKey } = port;
    const submitted = inboxKey ? { ...spec, notify: { inbox: inboxKey, taskId } } : spec;
    sink(remoteRunStart(spec, this.#parentToolCallId));
    this.#runtime.directory.startedRemote(
      {
        agentId: spec.agentId,
        parentId: spec.parentId,
        depth: spec.depth,
        agentType: String(spec.definition.name),
        description: spec.description,
        path: spec.agentPath,
      },
      { name: this.#name, background: true, taskId },
    );
    let result: RunResult;
    const polling = new AbortController();
    try {
      // Ended while no process was attached (a resumed session), and posted to the durable
      // inbox: that is its result, even once the engine has forgotten the child itself.
      const posted = inboxKey ? await postedEnding(port, inboxKey, taskId) : undefined;
      if (posted) return await this.#ended(port, taskId, io, posted, sink);
      await port.executor.submit(
        await withTraceparent(submitted, this.#runtime.traceContext),
        io.signal,
      );
      io.running();
      void follow(port, spec.agentId, io, polling.signal);
      // TaskStop aborts the task's signal: the child is cancelled then, and its end awaited.
      result = await resultOf(port.executor, spec.agentId, io.signal);
    } catch (error) {
      result = failedRemote(
        spec,
        `The remote ${String(spec.definition.name)} agent could not be run: ${messageOf(error)}`,
      );
    } finally {
      polling.abort();
    }
    return this.#ended(port, taskId, io, result, sink);
  }

  /** Its ending reported, handed off, and forgotten by the durable inbox. */
  async #ended(
    port: RemotePort,
    taskId: string,
    io: ChildTaskIO,
    result: RunResult,
    sink: (event: AgentEvent) => void,
  ): Promise<TaskOutcome> {
    const runtime = this.#runtime;
    const { inboxKey } = port;
    io.ended(result.status);
    reportRemoteEnding(result, sink);
    runtime.directory.ended(result);
    const handed = await handOff(result, runtime, runtime.background?.signal ?? io.signal);
    const { agentId, parentId, depth } = result;
    for (const message of handed.warnings)
      sink({ agentId, parentId, depth, type: 'warning', message });
    const output = withWorktreeNote(handed.output, result);
    const text = typeof output === 'string' ? output : output.output;
    // The ending is in this run's task store now, which delivers it exactly once: the durable
    // inbox needs to keep it no longer.
    if (inboxKey) port.executor.acknowledge(inboxKey, taskId).catch(() => {});
    return outcomeOf(result, text, runtime.transcriptPathFor(result.agentId) ?? null);
  }
}

async function postedEnding(
  port: RemotePort,
  inboxKey: string,
  taskId: string,
): Promise<RunResult | undefined> {
  const endings = await port.executor.inbox(inboxKey).catch(() => []);
  return endings?.find((ending) => ending.taskId === taskId)?.result;
}

/** Reads the child's progress about once a second while it runs, for TaskOutput and the store. */
async function follow(
  port: RemotePort,
  agentId: string,
  io: ChildTaskIO,
  stop: AbortSignal,
): Promise<void> {
  while (!stop.aborted) {
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS));
    if (stop.aborted) return;
    const progress: RemoteProgress | undefined = await port.executor
      .progress(agentId, stop)
      .catch(() => undefined);
    if (!progress || stop.aborted) continue;
    io.progress(
      {
        turns: progress.turns,
        toolCalls: progress.toolCalls,
        tokens: progress.tokens,
        lastActivityAt: progress.lastActivityAt,
        lastToolName: progress.lastToolName,
      },
      progress.lastText,
    );
  }
}
