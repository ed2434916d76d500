// What the task store must not keep: secrets in a task's result, error, description and the
// messages for running agents, redacted as transcripts redact them (core/secret-redaction.ts).
import { redactSecrets, secretValuesFromEnv } from '../core/secret-redaction.js';
import type { TaskRecord } from '../core/tasks.js';

export class TaskRedaction {
  readonly #env: NodeJS.ProcessEnv;
  #secrets: readonly string[] | undefined;

  /**
   * @param env whose secret-looking variables are redacted. Read at the first redaction, not
   * here: reading `process.env` whole costs a quarter of a millisecond, and most runs open the
   * store without writing to it.
   */
  constructor(env: NodeJS.ProcessEnv) {
    this.#env = env;
  }

  text<T extends string | null | undefined>(text: T): T {
    if (typeof text !== 'string') return text;
    this.#secrets ??= secretValuesFromEnv(this.#env);
    return redactSecrets(text, { secrets: this.#secrets }) as T;
  }

  /** A record as `warren tasks` shows it: a store written before redaction is shown redacted. */
  record(record: TaskRecord): TaskRecord {
    return {
      ...record,
      description: this.text(record.description),
      result: this.text(record.result),
      error: this.text(record.error),
    };
  }
}
