// agentLoop()'s stream: a run's events as they are pushed, then its result, with an async
// generator's contract (it starts on the first `next()`; `return()` and `throw()` stop the run
// and wait for it). Written out rather than an async generator: a generator's `yield` costs every
// event of the tree one more await, two promises and a result object on the way to the reader.
import type { AgentEvent, RunResult } from '../core/events.js';
import { EventChannel } from './event-channel.js';

type Step = IteratorResult<AgentEvent, RunResult>;

/** Starts the run under `signal`, pushing each event to `sink`; resolves to its result. */
export type StartRun = (
  signal: AbortSignal,
  sink: (event: AgentEvent) => void,
) => Promise<RunResult>;

export class LoopStream implements AsyncGenerator<AgentEvent, RunResult> {
  readonly #channel = new EventChannel<AgentEvent, RunResult>();
  /** Aborts as the caller's signal does, or when the reader stops reading. */
  readonly #stopped = new AbortController();
  readonly #caller: AbortSignal | undefined;
  /** Until the first `next()`: nothing runs before it, as with a generator. */
  #start: StartRun | undefined;
  #done: Promise<RunResult> | undefined;

  constructor(caller: AbortSignal | undefined, start: StartRun) {
    this.#caller = caller;
    this.#start = start;
  }

  next(): Promise<Step> {
    if (this.#start) this.#run(this.#start);
    // The channel's end is the run's result (or its rejection), once: the generator's return.
    return this.#channel.next() as Promise<Step>;
  }

  async return(value: RunResult | PromiseLike<RunResult>): Promise<Step> {
    await this.#stop();
    return { value: await value, done: true };
  }

  async throw(error: unknown): Promise<Step> {
    await this.#stop();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return(undefined as unknown as RunResult);
  }

  #run(start: StartRun): void {
    this.#start = undefined;
    const caller = this.#caller;
    const stopped = this.#stopped;
    // One listener on the caller's signal, taken off when the run ends (a caller's signal may
    // outlive many runs), rather than a composite `AbortSignal.any` per run.
    const onAbort = () => stopped.abort(caller?.reason);
    if (caller?.aborted) onAbort();
    else caller?.addEventListener('abort', onAbort, { once: true });
    const channel = this.#channel;
    const done = start(stopped.signal, (event) => channel.push(event));
    this.#done = done;
    done.then(
      (result) => {
        caller?.removeEventListener('abort', onAbort);
        channel.close(result);
      },
      (error: unknown) => {
        caller?.removeEventListener('abort', onAbort);
        stopped.abort();
        channel.fail(error);
      },
    );
  }

  /** The reader stops: the run, if it started, is stopped and waited for; nothing more is read. */
  async #stop(): Promise<void> {
    this.#start = undefined;
    this.#channel.discard();
    const done = this.#done;
    if (!done) return;
    this.#stopped.abort();
    await done.catch(() => {});
  }
}
