// One agent's inbox: what arrived for it (notifications of its tasks, messages from agents) until
// its loop takes it, and whether it still has background work to wait for. The main agent's
// inbox also carries the events of background agents into the run's stream.
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { Inbox, InboxDelivery, InboxState } from '../core/inbox.js';
import { inboxMessage } from './task-notification.js';

/** One block of a delivery: a task's notification, or a message from another agent. */
export interface InboxItem {
  text: string;
  /** The ended task it reports; undefined for a message. */
  taskId?: string;
  /** A message the store records: marked read once it is taken into the conversation. */
  messageId?: string;
}

export interface AgentInboxHooks {
  /** The owner has these notifications (and the agent these messages) now: record it. */
  delivered(taskIds: readonly string[], messageIds: readonly string[]): void;
  /** Tasks this agent started that are still pending or running. */
  running(agentId: string): number;
  /** The loop ended. */
  closed(inbox: AgentInbox): void;
  /** Runs a blocking wait with the agent's slot lent out. */
  lend?: <T>(signal: AbortSignal, work: () => Promise<T>) => Promise<T>;
}

export class AgentInbox implements Inbox {
  readonly ref: AgentRef;
  /** The host keeps the agent's tasks running after its loop ends. */
  readonly keepTasks: boolean;
  readonly #hooks: AgentInboxHooks;
  #items: InboxItem[] = [];
  /** Only the main agent's inbox passes events on; undefined for the others. */
  #events: AgentEvent[] | undefined;
  /** Where they go once its loop runs (`passTo`); until then they wait in `#events`. */
  #sink: ((event: AgentEvent) => void) | undefined;
  #closed = false;
  #wake: ((state: InboxState) => void) | undefined;

  constructor(
    ref: AgentRef,
    hooks: AgentInboxHooks,
    options: { root?: boolean; keepTasks?: boolean },
  ) {
    this.ref = ref;
    this.#hooks = hooks;
    this.keepTasks = options.keepTasks === true;
    this.#events = options.root ? [] : undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Adds a block for the next delivery; false when the loop has ended and takes nothing more. */
  push(item: InboxItem): boolean {
    if (this.#closed) return false;
    this.#items.push(item);
    this.notify();
    return true;
  }

  /** Takes back a notification the agent already read another way (TaskOutput). */
  withdraw(taskId: string): boolean {
    const before = this.#items.length;
    this.#items = this.#items.filter((item) => item.taskId !== taskId);
    return this.#items.length < before;
  }

  /** An event of a background agent for the run's stream; dropped when nobody reads it. */
  passEvent(event: AgentEvent): void {
    if (!this.#events || this.#closed) return;
    if (this.#sink) this.#sink(event);
    else this.#events.push(event);
  }

  take(): InboxDelivery | undefined {
    if (this.#items.length === 0) return undefined;
    const items = this.#items;
    this.#items = [];
    const taskIds = items.flatMap((item) => (item.taskId ? [item.taskId] : []));
    const messageIds = items.flatMap((item) => (item.messageId ? [item.messageId] : []));
    return {
      message: {
        role: 'user',
        content: inboxMessage(
          items.map((item) => ({ notification: !!item.taskId, text: item.text })),
        ),
      },
      delivered: () => this.#hooks.delivered(taskIds, messageIds),
    };
  }

  passTo(sink: (event: AgentEvent) => void): void {
    if (!this.#events || this.#closed) return;
    this.#sink = sink;
    const waiting = this.#events;
    this.#events = [];
    for (const event of waiting) sink(event);
  }

  wait(signal: AbortSignal): Promise<InboxState> {
    const now = this.#state();
    if (now) return Promise.resolve(now);
    if (signal.aborted) return Promise.resolve('aborted');
    const blocked = new Promise<InboxState>((resolve) => {
      const onAbort = () => finish('aborted');
      const finish = (state: InboxState) => {
        signal.removeEventListener('abort', onAbort);
        this.#wake = undefined;
        resolve(state);
      };
      this.#wake = finish;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return this.#hooks.lend ? this.#hooks.lend(signal, () => blocked) : blocked;
  }

  /** Something changed (a task ended, an item or event arrived): wake a waiting loop. */
  notify(): void {
    const wake = this.#wake;
    if (!wake) return;
    const state = this.#state();
    if (state) wake(state);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#events = undefined;
    this.#sink = undefined;
    this.#hooks.closed(this);
  }

  /** Items left when the loop ended, never taken. */
  leftOver(): InboxItem[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  #state(): InboxState | undefined {
    if (this.#items.length > 0) return 'ready';
    if (this.#hooks.running(this.ref.agentId) === 0) return 'idle';
    return undefined;
  }
}
