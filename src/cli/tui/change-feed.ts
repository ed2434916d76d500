// Tells the UI that the session changed, at most once per interval however fast events arrive:
// a hundred children streaming at once still cost a few draws a second. The first change after
// a quiet spell goes out at once, so a single event never waits.

export interface ChangeFeedOptions {
  /** Shortest time between two notifications. */
  intervalMs: number;
  now?: () => number;
}

export class ChangeFeed {
  readonly #listeners = new Set<() => void>();
  readonly #intervalMs: number;
  readonly #now: () => number;
  #version = 0;
  #lastSent = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  /** Notifications sent, for the bench and tests. */
  sent = 0;

  constructor(options: ChangeFeedOptions) {
    this.#intervalMs = options.intervalMs;
    this.#now = options.now ?? Date.now;
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
    this.#lastSent = this.#now();
    this.#version++;
    this.sent++;
    for (const listener of this.#listeners) listener();
  }
}
