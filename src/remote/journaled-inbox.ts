// A remote child's inbox (core/inbox.ts): SendMessage resolves the workflow's next durable
// promise `inbox-<n>`, and the child looks for new ones after each model call, through the
// journal, so a replay delivers each message at the same point of the conversation.
import type * as restate from '@restatedev/restate-sdk';
import type { Inbox, InboxDelivery, InboxState } from '../core/inbox.js';
import { inboxMessage } from '../tasks/task-notification.js';
import type { RestateJournal } from './restate-journal.js';

/** How many messages one child takes in its life: a bound on a hostile sender's loop. */
export const MAX_INBOX_MESSAGES = 1000;

/** A message as its slot holds it: `id` is its signature's nonce, so a resend is seen as one. */
export interface InboxSlot {
  id: string;
  text: string;
}

/** The durable promise that holds the `n`th message (from 1). */
export function inboxSlot(n: number): string {
  return `inbox-${n}`;
}

export class JournaledInbox implements Inbox {
  readonly #ctx: restate.WorkflowContext;
  readonly #journal: RestateJournal;
  #arrived: string[] = [];
  #next = 1;

  constructor(ctx: restate.WorkflowContext, journal: RestateJournal) {
    this.#ctx = ctx;
    this.#journal = journal;
  }

  /** Takes in what was sent since the last look; called between steps, never during one. */
  async collect(): Promise<void> {
    while (this.#next <= MAX_INBOX_MESSAGES) {
      // peek() answers through the journal (a RestatePromise), typed as a plain promise.
      const peeked = this.#ctx.promise<InboxSlot>(inboxSlot(this.#next)).peek();
      const slot = await this.#journal.await(
        peeked as restate.RestatePromise<InboxSlot | string | undefined>,
      );
      if (slot === undefined || slot === null) return;
      // A bare string: left by a worker of the version before messages were signed.
      this.#arrived.push(typeof slot === 'string' ? slot : slot.text);
      this.#next++;
    }
  }

  take(): InboxDelivery | undefined {
    if (this.#arrived.length === 0) return undefined;
    const texts = this.#arrived;
    this.#arrived = [];
    return {
      message: {
        role: 'user',
        content: inboxMessage(texts.map((text) => ({ notification: false, text }))),
      },
      // The journal is the record: a replay takes the same messages at the same point.
      delivered: () => {},
    };
  }

  async wait(): Promise<InboxState> {
    // A remote child starts no background work of its own: nothing more can arrive by waiting.
    return this.#arrived.length > 0 ? 'ready' : 'idle';
  }

  /** A remote child has no background agents whose events it would pass on. */
  passTo(): void {}

  close(): void {}
}
