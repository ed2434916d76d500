// The RemoteExecutor on Restate: spawn an idempotent submit of the `subagent` workflow keyed by
// agent id, the result an attach (repeatable from any process, riding out a server restart),
// progress and messages its shared handlers, cancel the admin API's cancel of its invocation.
import { setTimeout as sleep } from 'node:timers/promises';
import * as clients from '@restatedev/restate-sdk-clients';
import type { RunResult } from '../core/events.js';
import type {
  RemoteChildSpec,
  RemoteEnding,
  RemoteExecutor,
  RemoteProgress,
} from '../core/remote-executor.js';
import { cancelInvocation } from './restate-admin.js';
import {
  PARENT_INBOX_SERVICE,
  type ParentInboxApi,
  SUBAGENT_SERVICE,
  type SubagentApi,
} from './restate-services.js';
import { openResult } from './sealed-result.js';
import { type RemoteAuth, seal } from './signed-envelope.js';

export interface RestateExecutorOptions {
  /** The ingress, e.g. `http://127.0.0.1:8080`. */
  ingressUrl: string;
  /** The admin API, for cancel; e.g. `http://127.0.0.1:9070`. */
  adminUrl: string;
  /** The remote key(s) workers share with this process: every call is signed with the first. */
  auth: RemoteAuth;
  /** How long to keep retrying a call while restate-server does not answer. Default 10 minutes. */
  unavailableMs?: number;
}

/** Between attempts while restate-server does not answer (a restart). */
const RETRY_DELAY_MS = 250;

export class RestateExecutor implements RemoteExecutor {
  readonly name = 'restate';
  readonly ingressUrl: string;
  readonly adminUrl: string;
  readonly #ingress: clients.Ingress;
  readonly #unavailableMs: number;
  readonly #auth: RemoteAuth;
  /** Invocation ids of the children this process submitted, for cancel without a lookup. */
  readonly #invocations = new Map<string, string>();

  constructor(options: RestateExecutorOptions) {
    this.ingressUrl = options.ingressUrl;
    this.adminUrl = options.adminUrl;
    this.#ingress = clients.connect({ url: options.ingressUrl });
    this.#unavailableMs = options.unavailableMs ?? 600_000;
    this.#auth = options.auth;
  }

  async submit(spec: RemoteChildSpec, signal?: AbortSignal): Promise<void> {
    // Signed for this agent id alone: the same spec under another workflow id is refused.
    const sealed = seal(this.#auth, 'spec', spec.agentId, JSON.stringify(spec));
    const submitted = await this.#retrying(signal, () =>
      this.#workflow(spec.agentId).workflowSubmit(sealed, clients.SendOpts.from({ signal })),
    );
    this.#invocations.set(spec.agentId, submitted.invocationId);
  }

  async result(agentId: string, signal?: AbortSignal): Promise<RunResult> {
    const output = await this.#retrying(signal, () =>
      this.#workflow(agentId).workflowAttach(clients.rpc.opts({ signal })),
    );
    return openResult(this.#auth, agentId, output);
  }

  async progress(agentId: string, signal?: AbortSignal): Promise<RemoteProgress | undefined> {
    const progress = await this.#retrying(signal, () =>
      this.#workflow(agentId).progress(
        seal(this.#auth, 'read-progress', agentId, ''),
        clients.rpc.opts({ signal }),
      ),
    );
    return progress ?? undefined;
  }

  async cancel(agentId: string): Promise<void> {
    const invocationId =
      this.#invocations.get(agentId) ??
      (
        await this.#retrying(undefined, () =>
          this.#workflow(agentId).status(seal(this.#auth, 'read-status', agentId, '')),
        )
      ).invocationId;
    if (!invocationId) return;
    await cancelInvocation({ adminUrl: this.adminUrl, invocationId });
  }

  send(agentId: string, text: string): Promise<boolean> {
    // Sealed once: a retry is the same message, which the worker delivers once.
    const sealed = seal(this.#auth, 'message', agentId, text);
    return this.#retrying(undefined, () => this.#workflow(agentId).message(sealed));
  }

  inbox(key: string): Promise<RemoteEnding[]> {
    return this.#retrying(undefined, () =>
      this.#parentInbox(key).pending(seal(this.#auth, 'read-inbox', key, '')),
    );
  }

  async acknowledge(key: string, taskId: string): Promise<void> {
    const sealed = seal(this.#auth, 'acknowledge', key, taskId);
    await this.#retrying(undefined, () => this.#parentInbox(key).acknowledge(sealed));
  }

  #workflow(agentId: string) {
    return this.#ingress.workflowClient<SubagentApi>({ name: SUBAGENT_SERVICE }, agentId);
  }

  #parentInbox(key: string) {
    return this.#ingress.objectClient<ParentInboxApi>({ name: PARENT_INBOX_SERVICE }, key);
  }

  /**
   * A call, tried again while restate-server does not answer or is starting (a network error,
   * 502–504): each call here is safe to repeat. Anything else (the child failed for good, the
   * signal) is thrown.
   */
  async #retrying<T>(signal: AbortSignal | undefined, call: () => PromiseLike<T>): Promise<T> {
    const started = Date.now();
    for (;;) {
      try {
        return await call();
      } catch (error) {
        signal?.throwIfAborted();
        if (!isUnavailable(error) || Date.now() - started > this.#unavailableMs) {
          throw describeFailure(error, this.ingressUrl);
        }
      }
      await sleep(RETRY_DELAY_MS, undefined, signal ? { signal } : undefined);
    }
  }
}

function isUnavailable(error: unknown): boolean {
  if (error instanceof clients.HttpCallError) return [502, 503, 504].includes(error.status);
  // fetch's own failure: refused, reset, closed mid-answer.
  return error instanceof TypeError;
}

function describeFailure(error: unknown, ingressUrl: string): Error {
  if (error instanceof clients.HttpCallError) {
    return new Error(
      `restate-server at ${ingressUrl} answered ${error.status}: ${error.responseText || error.message}`,
    );
  }
  if (error instanceof TypeError) {
    const cause = (error.cause as Error | undefined)?.message ?? error.message;
    return new Error(`restate-server at ${ingressUrl} did not answer (${cause})`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
