// A push-to-pull queue: concurrent tool calls push events, the loop's generator pulls them in
// arrival order. This is how many running tools (and sub-agents) share one event stream.
// A plain iterator rather than an async generator: every event of a sub-agent tree passes
// through here, and a buffered event should cost no extra promise hop.

export class EventChannel<T> implements AsyncIterable<T>, AsyncIterator<T> {
  #items: T[] = [];
  #next = 0;
  #closed = false;
  #waiting: ((result: IteratorResult<T>) => void) | undefined;

  push(item: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting({ value: item, done: false });
      return;
    }
    this.#items.push(item);
  }

  close(): void {
    this.#closed = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#next < this.#items.length) {
      const value = this.#items[this.#next++] as T;
      // Reset rather than shift: draining a long queue stays linear.
      if (this.#next === this.#items.length) {
        this.#items = [];
        this.#next = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this;
  }
}
