// When a replayed background agent may end: not before its owner has asked the model the turn
// before the one whose recorded request carried its notification. A replayed child answers at
// once, so without this its notification could reach its owner a turn earlier than recorded,
// and the replay would diverge on timing alone.
import type { Cassette } from './cassette.js';

const NOTIFIED_TASK = /<task-notification>\\n<task-id>([\w-]+)<\/task-id>/g;

interface Waiter {
  path: string;
  turn: number;
  release: () => void;
}

export class DeliveryGate {
  readonly #cassette: Cassette;
  /** Per task id, the agent and turn whose recorded request first carried its notification. */
  #deliveries: Map<string, { path: string; turn: number }> | undefined;
  readonly #asked = new Map<string, number>();
  #waiters: Waiter[] = [];

  constructor(cassette: Cassette) {
    this.#cassette = cassette;
  }

  /** The agent at `path` asked its model turn `turn`. */
  asked(path: string, turn: number): void {
    this.#asked.set(path, turn);
    const ready = this.#waiters.filter((waiter) => this.#reached(waiter));
    this.#waiters = this.#waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.release();
  }

  /**
   * Resolves once the background agent `agentId` may end as recorded (at once for an agent
   * that ran in the foreground, or whose notification no recorded request carried).
   */
  held(agentId: string, signal?: AbortSignal): Promise<void> {
    const taskId = this.#cassette.taskIds.get(`agent\0${agentId}`)?.[0];
    const delivery = taskId === undefined ? undefined : this.#deliveriesOf().get(taskId);
    if (!delivery) return Promise.resolve();
    const waiter = { path: delivery.path, turn: delivery.turn - 1, release: () => {} };
    if (this.#reached(waiter)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      waiter.release = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #reached(waiter: Waiter): boolean {
    return (this.#asked.get(waiter.path) ?? 0) >= waiter.turn;
  }

  #deliveriesOf(): Map<string, { path: string; turn: number }> {
    if (this.#deliveries) return this.#deliveries;
    const deliveries = new Map<string, { path: string; turn: number }>();
    for (const entry of this.#cassette.entries) {
      if (entry.type !== 'model') continue;
      for (const [, taskId] of JSON.stringify(entry.request.prompt).matchAll(NOTIFIED_TASK)) {
        const known = deliveries.get(taskId!);
        if (!known || (known.path === entry.path && known.turn > entry.turn)) {
          deliveries.set(taskId!, { path: entry.path, turn: entry.turn });
        }
      }
    }
    this.#deliveries = deliveries;
    return deliveries;
  }
}
