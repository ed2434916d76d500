// What the task store must not keep: secrets in a task's result, error, description and the
// messages for running agents, redacted as transcripts redact them (core/secret-redaction.ts).
import { redactSecrets, secretValuesFromEnv } from '../core/secret-redaction.js';
import type { TaskRecord } from '../core/tasks.js';

export class TaskRedaction {
  readonly #secrets: readonly string[];

  /** @param env whose secret-looking variables are redacted */
  constructor(env: NodeJS.ProcessEnv) {
    this.#secrets = secretValuesFromEnv(env);
  }

  text<T extends string | null | undefined>(text: T): T {
    return (typeof text === 'string' ? redactSecrets(text, { secrets: this.#secrets }) : text) as T;
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
