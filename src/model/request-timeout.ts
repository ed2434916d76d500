// A model request that stops answering: no response within the request timeout, or no byte of
// a streamed reply within it. A watchdog per attempt turns that into a RequestTimeoutError
// (retried like a dropped connection) instead of a wait of many minutes. Any byte is life: SSE
// keep-alive comments, empty deltas and a late usage chunk make no stream part, yet say the
// server is still at work.
import { sharedFanOut } from '../core/abort-fan-out.js';
import { hasErrorMark } from '../core/error-mark.js';

export type RequestStage = 'response' | 'stream';

export class RequestTimeoutError extends Error {
  readonly isRequestTimeout = true;
  readonly timeoutMs: number;
  /** `response`: nothing came back; `stream`: the reply started, then stopped coming. */
  readonly stage: RequestStage;

  constructor(timeoutMs: number, stage: RequestStage) {
    super(
      stage === 'response'
        ? `no answer in ${formatSeconds(timeoutMs)}`
        : `the reply stopped: nothing more came for ${formatSeconds(timeoutMs)}`,
    );
    this.name = 'RequestTimeoutError';
    this.timeoutMs = timeoutMs;
    this.stage = stage;
  }

  static isInstance(error: unknown): error is RequestTimeoutError {
    return hasErrorMark(error, 'isRequestTimeout');
  }
}

/** The watchdog of each attempt, by the abort signal its request's fetch is given. */
const listeners = new WeakMap<AbortSignal, RequestWatchdog>();

/** Bytes of a response arrived for the request with this signal: its watchdog waits on. */
export function bytesArrived(signal: AbortSignal | null | undefined): void {
  if (signal) listeners.get(signal)?.heard();
}

/**
 * Watches one attempt of a model call. `arm` before each wait, `disarm` when something arrived:
 * time the caller spends between waits (handing a chunk on) does not count. One timer per
 * attempt, moved only when it fires, since a streamed reply arrives in thousands of pieces.
 */
export class RequestWatchdog {
  readonly timeoutMs: number;
  /** Set once the watchdog fired. */
  error: RequestTimeoutError | undefined;
  readonly #controller = new AbortController();
  #onFire: Array<() => void> | undefined;
  /** Fails the wait in progress, if any, when the watchdog fires. */
  #reject: ((error: RequestTimeoutError) => void) | undefined;
  #stage: RequestStage = 'response';
  #due = Infinity;
  #timer: NodeJS.Timeout | undefined;

  /** Stops following the caller's signal. */
  readonly #unfollow: (() => void) | undefined;

  /**
   * `parent`: the caller's signal; the watchdog's own aborts with it too (through the signal's
   * shared fan-out, dropped at `stop`: cheaper per request than a listener of its own or a
   * composite `AbortSignal.any`).
   */
  constructor(timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    listeners.set(this.#controller.signal, this);
    if (parent)
      this.#unfollow = sharedFanOut(parent).add(() => this.#controller.abort(parent.reason));
  }

  /**
   * Aborts when the watchdog fires or the parent signal aborts; give it to the request. The
   * bytes of the request sent with it count as life (`bytesArrived`).
   */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * `promise`, or a RequestTimeoutError if it takes longer than the timeout. One promise per
   * wait, made here rather than a race against a standing one: this runs for every request.
   */
  wait<T>(promise: PromiseLike<T>, stage: RequestStage): Promise<T> {
    if (this.error) return Promise.reject(this.error);
    this.arm(stage);
    return new Promise<T>((resolve, reject) => {
      this.#reject = reject;
      promise.then(
        (value) => {
          this.#settled();
          resolve(value);
        },
        (error: unknown) => {
          this.#settled();
          reject(error);
        },
      );
    });
  }

  #settled(): void {
    this.disarm();
    this.#reject = undefined;
  }

  arm(stage: RequestStage): void {
    if (!Number.isFinite(this.timeoutMs) || this.error) return;
    this.#stage = stage;
    this.#due = Date.now() + this.timeoutMs;
    this.#timer ??= setTimeout(this.#check, this.timeoutMs);
  }

  disarm(): void {
    this.#due = Infinity;
  }

  /** Bytes of the reply arrived (`bytesArrived`): an armed wait starts again. */
  heard(): void {
    if (Number.isFinite(this.#due)) this.#due = Date.now() + this.timeoutMs;
  }

  /** Runs `callback` when the watchdog fires, e.g. to cancel a stream reader a read waits on. */
  onFire(callback: () => void): void {
    this.#onFire ??= [];
    this.#onFire.push(callback);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unfollow?.();
    // fetch keeps the signal until its own request is collected; without this entry the signal
    // keeps nothing of the watchdog alive, which would otherwise outlive the request.
    listeners.delete(this.#controller.signal);
  }

  readonly #check = () => {
    this.#timer = undefined;
    if (!Number.isFinite(this.#due)) return;
    const left = this.#due - Date.now();
    if (left > 0) {
      this.#timer = setTimeout(this.#check, left);
      return;
    }
    this.error = new RequestTimeoutError(this.timeoutMs, this.#stage);
    this.#controller.abort(this.error);
    this.#reject?.(this.error);
    for (const callback of this.#onFire ?? []) callback();
  };
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(seconds < 10 ? 2 : 1))} s`;
}
