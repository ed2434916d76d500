// A workflow run's record in Restate as its parent reads and writes it: each entry encrypted
// (sealed-record.ts), each call sealed with the remote key (signed-envelope.ts), writes of one
// run sent in the order they were made, calls retried while restate-server does not answer.
import { setTimeout as sleep } from 'node:timers/promises';
import * as clients from '@restatedev/restate-sdk-clients';
import { WORKFLOW_RECORD_SERVICE, type WorkflowRecordApi } from './restate-services.js';
import { openEntry, sealEntry } from './sealed-record.js';
import { type RemoteAuth, seal } from './signed-envelope.js';

export interface RecordClientOptions {
  ingressUrl: string;
  auth: RemoteAuth;
  /** How long to keep retrying while restate-server does not answer. Default 2 minutes. */
  unavailableMs?: number;
}

const RETRY_DELAY_MS = 250;

export class RestateRecordClient {
  readonly #ingress: clients.Ingress;
  readonly #auth: RemoteAuth;
  readonly #ingressUrl: string;
  readonly #unavailableMs: number;

  constructor(options: RecordClientOptions) {
    this.#ingress = clients.connect({ url: options.ingressUrl });
    this.#auth = options.auth;
    this.#ingressUrl = options.ingressUrl;
    this.#unavailableMs = options.unavailableMs ?? 120_000;
  }

  /** Sets the named entries of run `runId`'s record (plain text in, encrypted on the way). */
  async write(runId: string, entries: Record<string, string>): Promise<void> {
    const sealed: Record<string, string> = {};
    for (const [name, text] of Object.entries(entries)) {
      sealed[name] = sealEntry(this.#auth, runId, name, text);
    }
    // Sealed once: a retry is the same write.
    const request = seal(this.#auth, 'record-write', runId, JSON.stringify(sealed));
    await this.#retrying(() => this.#object(runId).write(request));
  }

  /** Every entry of run `runId`'s record, decrypted; empty when Restate has none. */
  async read(runId: string): Promise<Record<string, string>> {
    const entries = await this.#retrying(() =>
      this.#object(runId).read(seal(this.#auth, 'record-read', runId, '')),
    );
    const opened: Record<string, string> = {};
    for (const [name, value] of Object.entries(entries)) {
      opened[name] = openEntry(this.#auth, runId, name, value);
    }
    return opened;
  }

  #object(runId: string) {
    return this.#ingress.objectClient<WorkflowRecordApi>({ name: WORKFLOW_RECORD_SERVICE }, runId);
  }

  async #retrying<T>(call: () => PromiseLike<T>): Promise<T> {
    const started = Date.now();
    for (;;) {
      try {
        return await call();
      } catch (error) {
        const unavailable =
          error instanceof clients.HttpCallError
            ? [502, 503, 504].includes(error.status)
            : error instanceof TypeError;
        if (!unavailable || Date.now() - started > this.#unavailableMs) {
          throw new Error(
            error instanceof clients.HttpCallError
              ? `restate-server at ${this.#ingressUrl} answered ${error.status} to the workflow record: ${error.responseText || error.message}`
              : `restate-server at ${this.#ingressUrl} did not answer for the workflow record (${(error as Error).message})`,
          );
        }
      }
      await sleep(RETRY_DELAY_MS);
    }
  }
}
