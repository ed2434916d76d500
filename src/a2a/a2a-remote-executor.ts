// A `kind: remote` definition's RemoteExecutor: each child is one A2A task, sent with the
// official SDK client and followed on its stream (states, progress, artifacts) until it ends.
// A child's context id is its agent id, so a resumed parent finds the task it started before
// and re-attaches to it instead of sending the work again.

import { setTimeout as sleep } from 'node:timers/promises';
import { type Artifact, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import type { Client, RequestOptions } from '@a2a-js/sdk/client';
import { messageOf } from '../core/error-message.js';
import type { RunResult } from '../core/events.js';
import {
  type RemoteChildSpec,
  type RemoteEnding,
  type RemoteExecutor,
  type RemoteProgress,
  startingProgress,
} from '../core/remote-executor.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { openA2aClient } from './a2a-client.js';
import { partsText, sendTextRequest } from './a2a-parts.js';
import { a2aResult, type TaskView } from './a2a-result.js';
import { BUDGET_KEY } from './remote-run-report.js';

/** How long a task whose stream broke is looked for again before the child gives up on it. */
const REATTACH_MS = 60_000;

const ENDED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

interface Child {
  spec: RemoteChildSpec;
  taskId: string | undefined;
  view: TaskView;
  progress: RemoteProgress;
  result: Promise<RunResult>;
  /** Its cancel was asked for: a broken stream is not followed again. */
  cancelled?: boolean;
}

export class A2aRemoteExecutor implements RemoteExecutor {
  readonly name = 'a2a';
  readonly #definition: AgentDefinition;
  readonly #env: NodeJS.ProcessEnv;
  #client: Promise<Client> | undefined;
  readonly #children = new Map<string, Child>();

  constructor(definition: AgentDefinition, env: NodeJS.ProcessEnv) {
    this.#definition = definition;
    this.#env = env;
  }

  async submit(spec: RemoteChildSpec): Promise<void> {
    if (this.#children.has(spec.agentId)) return;
    const client = await this.#clientOnce();
    const started = Date.now();
    const child: Child = {
      spec,
      taskId: undefined,
      view: {
        state: TaskState.TASK_STATE_SUBMITTED,
        artifacts: [],
        lastText: '',
        metadata: undefined,
      },
      progress: startingProgress(),
      result: Promise.resolve(undefined as never),
    };
    child.result = this.#follow(client, child).then(
      () => a2aResult(spec, this.#definition, child.view, Date.now() - started),
      (error: unknown) =>
        a2aResult(
          spec,
          this.#definition,
          { ...child.view, failure: messageOf(error) },
          Date.now() - started,
        ),
    );
    child.result.then(() => {
      child.progress.state = 'ended';
    });
    this.#children.set(spec.agentId, child);
  }

  result(agentId: string, signal?: AbortSignal): Promise<RunResult> {
    const child = this.#children.get(agentId);
    if (!child) return Promise.reject(new Error(`no A2A task was started for ${agentId}`));
    if (!signal) return child.result;
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      child.result
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async progress(agentId: string): Promise<RemoteProgress | undefined> {
    return this.#children.get(agentId)?.progress;
  }

  async cancel(agentId: string): Promise<void> {
    const child = this.#children.get(agentId);
    if (!child?.taskId) return;
    child.cancelled = true;
    const client = await this.#clientOnce();
    await client.cancelTask({ tenant: '', id: child.taskId, metadata: {} });
  }

  /** A2A has no way to reach a running task but its next message: not supported here. */
  async send(): Promise<boolean> {
    return false;
  }

  /** Endings go to the task's own record on its server; there is no durable inbox here. */
  async inbox(): Promise<RemoteEnding[]> {
    return [];
  }

  async acknowledge(): Promise<void> {}

  #clientOnce(): Promise<Client> {
    this.#client ??= openA2aClient(this.#definition.remote!, this.#env).catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  /** Sends the task, or re-attaches to the one this agent id started before, and reads it out. */
  async #follow(client: Client, child: Child): Promise<void> {
    const { spec } = child;
    const earlier = await earlierTask(client, spec.agentId);
    if (earlier) {
      child.taskId = earlier.id;
      this.#seeTask(child, earlier);
      if (ENDED.has(child.view.state)) return;
    }
    // The child's span continues on the remote side: W3C `traceparent` as an HTTP header (what
    // OpenTelemetry's HTTP instrumentation reads), and in the metadata for other bindings.
    const { traceparent } = spec;
    const traced: RequestOptions | undefined = traceparent
      ? { serviceParameters: { traceparent } }
      : undefined;
    const stream = earlier
      ? client.resubscribeTask({ tenant: '', id: earlier.id }, traced)
      : client.sendMessageStream(
          sendTextRequest(spec.prompt, {
            contextId: spec.agentId,
            // What of the parent's budget is left travels along; a warren server holds to it.
            metadata: {
              [BUDGET_KEY]: { deadline: spec.budget.deadline, tokens: spec.budget.tokens },
              ...(traceparent ? { traceparent } : {}),
            },
          }),
          traced,
        );
    try {
      for await (const event of stream) this.#see(child, event);
    } catch (error) {
      // Refused (auth, a bad request) before the server named the task: nothing to follow.
      if (!child.taskId && !isConnectionError(error)) throw error;
    }
    await this.#reattach(client, child, traced);
  }

  /**
   * The stream ended before the task did (its server restarted, the connection broke): the task
   * is fetched by id and followed again, for as long as the server answers again within
   * REATTACH_MS of the last time it did. A warren server goes on with the task after a restart.
   */
  async #reattach(client: Client, child: Child, traced: RequestOptions | undefined): Promise<void> {
    let answeredAt = Date.now();
    let pause = 100;
    while (!ENDED.has(child.view.state)) {
      await sleep(pause);
      try {
        // A stream cut before it named the task: the task is the one of this agent's context.
        const task = child.taskId
          ? await client.getTask({ tenant: '', id: child.taskId, historyLength: 0 })
          : await taskOfContext(client, child.spec.agentId);
        answeredAt = Date.now();
        if (!task) throw new Error('the connection broke and the agent has no task of it');
        child.taskId = task.id;
        this.#seeTask(child, task);
        if (ENDED.has(child.view.state)) return;
        // A server that keeps ending the stream at once is asked less and less often.
        pause = Math.min(pause * 2, 2000);
        for await (const event of client.resubscribeTask({ tenant: '', id: task.id }, traced)) {
          this.#see(child, event);
          pause = 100;
        }
      } catch (error) {
        // Cancelled while its server is away, or away too long: the child ends with the error.
        // Without a task id only an unreachable server is waited for: an answer ends it.
        const waitable = child.taskId !== undefined || isConnectionError(error);
        if (child.cancelled || !waitable || Date.now() - answeredAt > REATTACH_MS) throw error;
        pause = Math.min(pause * 2, 2000);
      }
    }
  }

  #see(child: Child, event: StreamResponse): void {
    const payload = event.payload;
    if (!payload) return;
    child.progress.lastActivityAt = Date.now();
    if (payload.$case === 'task') {
      child.taskId = payload.value.id;
      this.#seeTask(child, payload.value);
    } else if (payload.$case === 'statusUpdate') {
      child.taskId ??= payload.value.taskId;
      const text = partsText(payload.value.status?.message?.parts);
      child.view.state = payload.value.status?.state ?? child.view.state;
      child.view.metadata = payload.value.metadata;
      if (text) child.view.lastText = child.progress.lastText = text.slice(-500);
    } else if (payload.$case === 'artifactUpdate' && payload.value.artifact) {
      addArtifact(child.view.artifacts, payload.value.artifact, payload.value.append);
    } else if (payload.$case === 'message') {
      // A task-less answer: the whole reply in one message.
      child.view.lastText = partsText(payload.value.parts);
      child.view.state = TaskState.TASK_STATE_COMPLETED;
      child.view.artifacts.push({
        artifactId: payload.value.messageId,
        name: 'reply',
        description: '',
        parts: payload.value.parts,
        metadata: {},
        extensions: [],
      });
    }
  }

  #seeTask(child: Child, task: Task): void {
    child.view.state = task.status?.state ?? child.view.state;
    child.view.lastText = partsText(task.status?.message?.parts) || child.view.lastText;
    if (task.artifacts.length > 0) child.view.artifacts = [...task.artifacts];
  }
}

function addArtifact(artifacts: Artifact[], artifact: Artifact, append: boolean): void {
  const earlier = artifacts.find((candidate) => candidate.artifactId === artifact.artifactId);
  if (earlier && append) earlier.parts.push(...artifact.parts);
  else if (earlier) earlier.parts = [...artifact.parts];
  else artifacts.push({ ...artifact, parts: [...artifact.parts] });
}

/** The task an earlier process started for this agent id, when the server lists tasks. */
async function earlierTask(client: Client, agentId: string): Promise<Task | undefined> {
  try {
    return await taskOfContext(client, agentId);
  } catch {
    // A server without ListTasks (A2A 0.3): the task is sent anew.
    return undefined;
  }
}

/** The task of the context `agentId` names; throws when the server cannot be asked. */
async function taskOfContext(client: Client, agentId: string): Promise<Task | undefined> {
  const listed = await client.listTasks({
    tenant: '',
    contextId: agentId,
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageToken: '',
    statusTimestampAfter: undefined,
  });
  return listed.tasks[0];
}

/** fetch's failures to connect or to go on reading (undici: TypeError, with a cause). */
function isConnectionError(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof TypeError) return true;
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONN|EPIPE|UND_ERR_SOCKET)/.test(code)) return true;
    if (typeof cause !== 'object') return false;
  }
  return false;
}
