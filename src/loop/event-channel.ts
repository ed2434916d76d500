// A push-to-pull queue: concurrent tool calls push events, the loop's reader pulls them in
// arrival order. This is how many running tools (and sub-agents) share one event stream.
// A plain iterator rather than an async generator: every event of a sub-agent tree passes
// through here, and a buffered event should cost no extra promise hop.

/** A reader waiting for the next item: its read's resolve. */
type Waiting<T, R> = (
  step: IteratorResult<T, R | undefined> | PromiseLike<IteratorResult<T, R | undefined>>,
) => void;

export class EventChannel<T, R = undefined>
  implements AsyncIterable<T>, AsyncIterator<T, R | undefined>
{
  #items: T[] = [];
  #next = 0;
  #closed = false;
  /** How it ends, handed to the first reader past the last item: a value, or an error. */
  #end: { value: R | undefined } | { error: unknown } | undefined;
  /** Readers waiting, first come first served (a reader may ask again before an answer). */
  #waiting: Array<Waiting<T, R>> = [];

  push(item: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting.shift();
    if (waiting) {
      waiting({ value: item, done: false });
      return;
    }
    this.#items.push(item);
  }

  /** No more items: after those pushed, readers get `{ done: true }`, the first with `value`. */
  close(value?: R): void {
    this.#finish({ value });
  }

  /** No more items: after those pushed, the next read rejects with `error`. */
  fail(error: unknown): void {
    this.#finish({ error });
  }

  /** Ends it now: items not read yet are dropped, and every read gets `{ done: true }`. */
  discard(): void {
    this.#items = [];
    this.#next = 0;
    this.#closed = true;
    this.#end = undefined;
    for (const waiting of this.#waiting.splice(0)) waiting(this.#ending());
  }

  next(): Promise<IteratorResult<T, R | undefined>> {
    if (this.#next < this.#items.length) {
      const value = this.#items[this.#next++] as T;
      // Reset rather than shift: draining a long queue stays linear.
      if (this.#next === this.#items.length) {
        this.#items = [];
        this.#next = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed) return this.#ending();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T, R | undefined> {
    return this;
  }

  #finish(end: { value: R | undefined } | { error: unknown }): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#end = end;
    // Anyone waiting found nothing buffered: the end is theirs.
    for (const waiting of this.#waiting.splice(0)) waiting(this.#ending());
  }

  /** The end, once: its value or error to the first reader, `{ done: true }` to the rest. */
  #ending(): Promise<IteratorResult<T, R | undefined>> {
    const end = this.#end;
    this.#end = undefined;
    if (end !== undefined && 'error' in end) return Promise.reject(end.error);
    return Promise.resolve({ value: end?.value, done: true });
  }
}
