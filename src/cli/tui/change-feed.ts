// Tells the UI that the session changed at most once per interval, however fast events arrive
// (the first change after a quiet spell at once); the interval grows with what a draw costs, so
// drawing keeps to a set share of the time. A hundred streaming children: a few draws a second.

export interface ChangeFeedOptions {
  /** Shortest time between two notifications. */
  intervalMs: number;
  /**
   * At most this share of the time goes to drawing: after a draw that took d ms the next waits
   * d ÷ share ms at least (and never more than a second). Default 0.03.
   */
  drawShare?: number;
  now?: () => number;
}

const MAX_INTERVAL_MS = 1000;

export class ChangeFeed {
  readonly #listeners = new Set<() => void>();
  readonly #minIntervalMs: number;
  readonly #drawShare: number;
  readonly #now: () => number;
  #intervalMs: number;
  /** A running average of what one draw costs, in ms. */
  #drawMs = 0;
  /** What the draw in progress has cost so far. */
  #frameMs = 0;
  #version = 0;
  #lastSent = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  /** Notifications sent, for the bench and tests. */
  sent = 0;

  constructor(options: ChangeFeedOptions) {
    this.#minIntervalMs = options.intervalMs;
    this.#intervalMs = options.intervalMs;
    this.#drawShare = options.drawShare ?? 0.03;
    this.#now = options.now ?? Date.now;
  }

  /** The interval now: the shortest, or longer after costly draws. */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  /**
   * Time spent drawing the last change (the UI reports its parts: React's render and Ink's
   * layout, then Ink's output); the draw's total sets the interval after the next one.
   */
  drew(ms: number): void {
    this.#frameMs += ms;
  }

  /** For `useSyncExternalStore`. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** For `useSyncExternalStore`: changes whenever listeners were told of a change. */
  readonly version = (): number => this.#version;

  /** Something changed: listeners hear of it now, or at the end of the current interval. */
  readonly changed = (): void => {
    if (this.#timer) return;
    const wait = this.#lastSent + this.#intervalMs - this.#now();
    if (wait <= 0) {
      this.#send();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#send();
    }, wait);
  };

  /** Tells listeners at once (a key the person pressed, a question to answer). */
  readonly flush = (): void => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#send();
  };

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
  }

  #send(): void {
    if (this.#frameMs > 0) {
      const ms = this.#frameMs;
      this.#frameMs = 0;
      this.#drawMs = this.#drawMs === 0 ? ms : 0.8 * this.#drawMs + 0.2 * ms;
      const wanted = this.#drawMs / this.#drawShare;
      this.#intervalMs = Math.min(MAX_INTERVAL_MS, Math.max(this.#minIntervalMs, wanted));
    }
    this.#lastSent = this.#now();
    this.#version++;
    this.sent++;
    for (const listener of this.#listeners) listener();
  }
}
