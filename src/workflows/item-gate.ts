// The launch gate of a workflow run: at most N items at once, and a circuit breaker that, once
// tripped (a terminal error, the budget spent, the run stopped), lets nothing more through and
// stops what runs.

/** Thrown to a waiting or running item when the breaker has tripped. */
export class BreakerTripped extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
    this.name = 'BreakerTripped';
  }
}

export class ItemGate {
  readonly #max: number;
  #running = 0;
  readonly #waiting: { go: () => void; stop: (error: Error) => void }[] = [];
  readonly #breaker = new AbortController();
  #reason: string | undefined;

  constructor(maxConcurrent: number) {
    this.#max = maxConcurrent;
  }

  /** Aborts when the breaker trips: running items follow it. */
  get signal(): AbortSignal {
    return this.#breaker.signal;
  }

  get tripped(): string | undefined {
    return this.#reason;
  }

  /** Stops every launch from now on, and what runs; the first reason is kept. */
  trip(reason: string): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#breaker.abort(new BreakerTripped(reason));
    for (const waiter of this.#waiting.splice(0)) waiter.stop(new BreakerTripped(reason));
  }

  /** Resolves when the item may start; rejects with BreakerTripped once the breaker has tripped. */
  async enter(): Promise<void> {
    if (this.#reason !== undefined) throw new BreakerTripped(this.#reason);
    if (this.#running < this.#max) {
      this.#running++;
      return;
    }
    // The slot is handed over by leave(), never counted twice.
    await new Promise<void>((go, stop) => this.#waiting.push({ go, stop }));
  }

  leave(): void {
    const next = this.#waiting.shift();
    if (next) next.go();
    else this.#running--;
  }
}
