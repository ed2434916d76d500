// One abort listener for many callbacks: what a thousand concurrent tool calls (or tasks)
// waiting on one agent's signal need, at O(1) a callback.

/**
 * Calls many callbacks when a signal aborts. EventTarget checks every listener for a duplicate
 * when one is added, so a thousand concurrent tool calls listening on one agent signal would
 * cost O(n²); a Set adds and removes in O(1).
 */
export class AbortFanOut {
  readonly signal: AbortSignal;
  /** Made with the first callback, with the one listener: most agents' fan-outs never get one. */
  #callbacks: Set<() => void> | undefined;

  constructor(signal: AbortSignal) {
    this.signal = signal;
  }

  /** Calls `callback` on abort (at once if already aborted); returns how to stop listening. */
  add(callback: () => void): () => void {
    if (this.signal.aborted) {
      callback();
      return () => {};
    }
    let callbacks = this.#callbacks;
    if (!callbacks) {
      callbacks = new Set();
      this.#callbacks = callbacks;
      this.signal.addEventListener('abort', () => this.#fire(), { once: true });
    }
    callbacks.add(callback);
    return () => callbacks.delete(callback);
  }

  #fire(): void {
    for (const callback of this.#callbacks!) callback();
  }
}

const shared = new WeakMap<AbortSignal, AbortFanOut>();

/**
 * The one fan-out of `signal`, made on first use: for many followers of one signal made in
 * different places (a parent's thousand children each following its cancel signal).
 */
export function sharedFanOut(signal: AbortSignal): AbortFanOut {
  let fanOut = shared.get(signal);
  if (!fanOut) {
    fanOut = new AbortFanOut(signal);
    shared.set(signal, fanOut);
  }
  return fanOut;
}
