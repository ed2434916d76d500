// Where the engine keeps a run's record, narrowed to what it and the Workflow call use: the
// session's task store alone (WorkflowStore), or that store kept in step with a record elsewhere
// (Restate, `--executor restate`), from which another machine's session can take the run up.
import { redactJson, redactSecrets, secretValuesFromEnv } from '../core/secret-redaction.js';
import type { StoredItem, StoredRun, WorkflowStore } from './workflow-store.js';

type Awaitable = void | Promise<void>;

/** What the engine reads and writes; the task store's `WorkflowStore` is one. */
export interface WorkflowRecord {
  run(runId: string): StoredRun | undefined;
  items(runId: string): StoredItem[];
  createRun(run: Parameters<WorkflowStore['createRun']>[0]): Awaitable;
  updateRun(...args: Parameters<WorkflowStore['updateRun']>): Awaitable;
  startItem(...args: Parameters<WorkflowStore['startItem']>): Awaitable;
  setItemAgent(...args: Parameters<WorkflowStore['setItemAgent']>): Awaitable;
  endItem(...args: Parameters<WorkflowStore['endItem']>): Awaitable;
  /** A run this session does not hold, taken from where it is kept; undefined when none is. */
  fetchRun?(runId: string): Promise<StoredRun | undefined>;
}

/**
 * A record kept elsewhere, by run: named text entries (`run`, `item:<key>#<occurrence>`). The
 * Restate one (remote/workflow-record-client.ts) encrypts and signs them.
 */
export interface RecordPort {
  write(runId: string, entries: Record<string, string>): Promise<void>;
  read(runId: string): Promise<Record<string, string>>;
}

/**
 * The task store with every change also written to `port`, in order, and awaited: an item is
 * reported completed only once its result is kept there. Reads are the task store's; a run it
 * lacks is copied in from the port first (`fetchRun`).
 */
export class ReplicatedRecord implements WorkflowRecord {
  readonly #local: WorkflowStore;
  readonly #port: RecordPort;
  /** Writes not sent yet, oldest first; each run's newest one takes more entries until it goes. */
  readonly #queue: Batch[] = [];
  readonly #open = new Map<string, Batch>();
  #sending = false;
  /** Secret values of this process's environment, kept out of what leaves it. */
  readonly #secrets = secretValuesFromEnv(process.env);

  constructor(local: WorkflowStore, port: RecordPort) {
    this.#local = local;
    this.#port = port;
  }

  run(runId: string): StoredRun | undefined {
    return this.#local.run(runId);
  }

  items(runId: string): StoredItem[] {
    return this.#local.items(runId);
  }

  createRun(run: Parameters<WorkflowStore['createRun']>[0]): Promise<void> {
    this.#local.createRun(run);
    return this.#pushRun(run.runId);
  }

  updateRun(...args: Parameters<WorkflowStore['updateRun']>): Promise<void> {
    this.#local.updateRun(...args);
    // The task id is this session's own: nothing another machine could use.
    const [runId, fields] = args;
    if (Object.keys(fields).every((field) => field === 'taskId')) return Promise.resolve();
    return this.#pushRun(runId);
  }

  startItem(...args: Parameters<WorkflowStore['startItem']>): Promise<void> {
    this.#local.startItem(...args);
    return this.#pushItem(args[0], args[1].key, args[1].occurrence);
  }

  setItemAgent(...args: Parameters<WorkflowStore['setItemAgent']>): Promise<void> {
    this.#local.setItemAgent(...args);
    return this.#pushItem(args[0], args[1], args[2]);
  }

  endItem(...args: Parameters<WorkflowStore['endItem']>): Promise<void> {
    this.#local.endItem(...args);
    return this.#pushItem(args[0], args[1], args[2]);
  }

  /**
   * The run as it is kept elsewhere, copied in when this store lacks it; when it has it, the
   * items another machine completed since are taken in (the record elsewhere is the one that
   * counts). Undefined when neither holds the run.
   */
  async fetchRun(runId: string): Promise<StoredRun | undefined> {
    const entries = await this.#port.read(runId);
    const here = this.#local.run(runId);
    if (entries.run === undefined) return here;
    const kept = JSON.parse(entries.run) as StoredRun;
    const items = Object.entries(entries)
      .filter(([name]) => name.startsWith('item:'))
      .map(([, text]) => JSON.parse(text) as StoredItem);
    if (!here) {
      this.#local.importRun({ ...kept, runId, taskId: null }, items);
      return this.#local.run(runId);
    }
    for (const item of items) {
      const mine = this.#local.item(runId, item.key, item.occurrence);
      if (item.status === 'completed' && mine?.status !== 'completed') {
        this.#local.putItem(runId, item);
      }
    }
    if (kept.spentTokens > here.spentTokens) {
      this.#local.updateRun(runId, { spentTokens: kept.spentTokens });
    }
    return this.#local.run(runId);
  }

  #pushRun(runId: string): Promise<void> {
    const run = this.#local.run(runId);
    if (!run) return Promise.resolve();
    const kept = {
      ...run,
      taskId: null,
      source: redactSecrets(run.source, { secrets: this.#secrets }),
      args: this.#redactedJson(run.args)!,
      result: this.#redactedJson(run.result),
      reason: run.reason && redactSecrets(run.reason, { secrets: this.#secrets }),
    };
    return this.#push(runId, { run: JSON.stringify(kept) });
  }

  #pushItem(runId: string, key: string, occurrence: number): Promise<void> {
    const item = this.#local.item(runId, key, occurrence);
    if (!item) return Promise.resolve();
    const kept = {
      ...item,
      result: this.#redactedJson(item.result),
      error: item.error && redactSecrets(item.error, { secrets: this.#secrets }),
    };
    return this.#push(runId, { [`item:${key}#${occurrence}`]: JSON.stringify(kept) });
  }

  /** JSON text with every string in it redacted; text that is not JSON is redacted as text. */
  #redactedJson(text: string | null): string | null {
    if (!text) return text;
    try {
      return JSON.stringify(redactJson(JSON.parse(text) as unknown, this.#secrets));
    } catch {
      return redactSecrets(text, { secrets: this.#secrets });
    }
  }

  /**
   * Writes go one after another, so a later state of an entry never lands before an earlier one;
   * what is made while one is under way goes together in the next (one call, not one per change).
   */
  #push(runId: string, entries: Record<string, string>): Promise<void> {
    let batch = this.#open.get(runId);
    if (!batch) {
      batch = newBatch(runId);
      this.#open.set(runId, batch);
      this.#queue.push(batch);
    }
    Object.assign(batch.entries, entries);
    void this.#send();
    return batch.done;
  }

  async #send(): Promise<void> {
    if (this.#sending) return;
    this.#sending = true;
    for (let batch = this.#queue.shift(); batch; batch = this.#queue.shift()) {
      this.#open.delete(batch.runId);
      try {
        await this.#port.write(batch.runId, batch.entries);
        batch.resolve();
      } catch (error) {
        batch.reject(error);
      }
    }
    this.#sending = false;
  }
}

interface Batch {
  runId: string;
  entries: Record<string, string>;
  done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function newBatch(runId: string): Batch {
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  // A write nobody waits for (an item's agent) fails quietly: the item's next write carries it.
  promise.catch(() => undefined);
  return { runId, entries: {}, done: promise, resolve, reject };
}
