// A push-to-pull queue: concurrent tool calls push events, the loop's generator pulls them in
// arrival order. This is how many running tools (and sub-agents) share one event stream.

export class EventChannel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #closed = false;
  #wake: (() => void) | undefined;

  push(item: T): void {
    if (this.#closed) return;
    this.#items.push(item);
    this.#wake?.();
  }

  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      if (this.#items.length > 0) {
        // Swap rather than shift: draining a long queue stays linear.
        const batch = this.#items;
        this.#items = [];
        yield* batch;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}
