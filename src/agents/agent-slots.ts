// The run-wide cap on sub-agents running at once (`--max-parallel`). An agent that is waiting
// for its own children lends its slot to them, so a deep tree can never deadlock on the cap.

export class AgentSlots {
  readonly limit: number;
  #running = 0;
  #queue: Array<() => void> = [];
  /** Agents holding a slot, with how many of their child calls are in progress. */
  readonly #lenders = new Map<string, number>();
  /** The most sub-agents that ever ran at once; for tests and benchmarks. */
  maxInFlight = 0;

  constructor(limit: number) {
    if (!(limit >= 1)) throw new RangeError(`the sub-agent limit must be at least 1, got ${limit}`);
    this.limit = limit;
  }

  get running(): number {
    return this.#running;
  }

  /** Waits for a free slot for `agentId`; rejects if the signal aborts first. */
  async acquire(agentId: string, signal: AbortSignal): Promise<void> {
    await this.#take(signal);
    this.#lenders.set(agentId, 0);
  }

  /** Takes a free slot for `agentId` now, if one is free and nobody is queued before it. */
  tryAcquire(agentId: string): boolean {
    if (this.#running >= this.limit || this.#queue.length > 0) return false;
    this.#count();
    this.#lenders.set(agentId, 0);
    return true;
  }

  release(agentId: string): void {
    if (!this.#lenders.delete(agentId)) return;
    this.#give();
  }

  /**
   * Runs `work` (a child call of `agentId`) with the caller's slot lent out for its duration.
   * Agents without a slot (the main agent) just run it.
   */
  lendWhile<T>(agentId: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const calls = this.#lenders.get(agentId);
    // No layer around the main agent's children (a thousand at once, say).
    if (calls === undefined) return work();
    return this.#lent(agentId, calls, signal, work);
  }

  async #lent<T>(
    agentId: string,
    calls: number,
    signal: AbortSignal,
    work: () => Promise<T>,
  ): Promise<T> {
    this.#lenders.set(agentId, calls + 1);
    if (calls === 0) this.#give();
    try {
      return await work();
    } finally {
      const left = (this.#lenders.get(agentId) ?? 1) - 1;
      this.#lenders.set(agentId, left);
      // The caller goes on only with a slot of its own again. Aborted, it is ending anyway
      // and holds none, so its later release must not give one back.
      if (left === 0) await this.#take(signal).catch(() => this.#lenders.delete(agentId));
    }
  }

  async #take(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#running < this.limit) {
      this.#count();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        this.#count();
        resolve();
      };
      const onAbort = () => {
        this.#queue = this.#queue.filter((waiter) => waiter !== wake);
        reject(signal.reason);
      };
      this.#queue.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  #count(): void {
    this.#running++;
    this.maxInFlight = Math.max(this.maxInFlight, this.#running);
  }

  #give(): void {
    this.#running--;
    this.#queue.shift()?.();
  }
}
