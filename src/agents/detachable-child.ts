// A foreground child that can be sent to the background while it runs: where its events go and
// which signal stops it, both switched once, from its parent's call to the run's background work.
import { sharedFanOut } from '../core/abort-fan-out.js';
import type { AgentEvent } from '../core/events.js';
import type { ChildSink } from './drive-child.js';

export class DetachableChild {
  readonly #controller = new AbortController();
  #sink: ChildSink;
  #unfollow: (() => void) | undefined;
  /** Ends the wait of `outcome`, once the child is sent to the background. */
  #onDetach: (() => void) | undefined;
  #isDetached = false;
  /** The child has started and not yet ended: only then can it be sent away. */
  running = false;

  /** @param follow what stops it while its parent's call waits (the parent's turn) */
  constructor(sink: ChildSink, follow: AbortSignal) {
    this.#sink = sink;
    this.#follow(follow);
  }

  /** What the child follows: its parent's turn, then, once detached, the run's background work. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get isDetached(): boolean {
    return this.#isDetached;
  }

  /** What stops it (its stall watchdog aborts this too): it follows the signal it is moved to. */
  get stopper(): Pick<AbortController, 'signal' | 'abort'> {
    return this.#controller;
  }

  /** Where its events go now. */
  readonly emit = (event: AgentEvent): void => {
    this.#sink(event);
  };

  /** Ends its parent's wait, if it is running; its events and stop then move with `moveTo`. */
  detach(): boolean {
    if (!this.running || this.#isDetached) return false;
    this.#isDetached = true;
    this.#onDetach?.();
    return true;
  }

  /**
   * What its parent's call waits for: `work`'s output, or undefined as soon as the child is sent
   * to the background. One promise, not a race with a second one per child.
   */
  outcome<T>(work: Promise<T>): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      if (this.#isDetached) resolve(undefined);
      this.#onDetach = () => resolve(undefined);
      work.then(resolve, reject);
    });
  }

  /** From now on its events go to `sink`, and it stops when `signal` aborts. */
  moveTo(sink: ChildSink, signal: AbortSignal): void {
    this.#sink = sink;
    this.#follow(signal);
  }

  /**
   * Its run has ended: it no longer follows its parent's turn. Otherwise each finished child of
   * a long turn stays on that turn's signal (and alive) until the turn ends.
   */
  ended(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
  }

  /**
   * One callback in the signal's shared fan-out (core/abort-fan-out.ts): a parent's thousand
   * children each follow its turn, and an EventTarget checks every listener on each add.
   */
  #follow(signal: AbortSignal): void {
    this.ended();
    this.#unfollow = sharedFanOut(signal).add(() => this.#controller.abort(signal.reason));
  }
}
