// The stall watchdog of one child: with no model output and no tool activity for too long, the
// child is stopped as `stalled`, so its parent is never left waiting forever on a hung stream.
import { AgentStop } from '../core/agent-stop.js';
import type { AgentEvent } from '../core/events.js';

/** What stops the child: the watchdog's own controller, or one the child already has. */
export type Stopper = Pick<AbortController, 'signal' | 'abort'>;

export class StallWatchdog {
  /**
   * Aborts with an `AgentStop('stalled')` when the child stalls, or as `parent` does: the signal
   * the child runs under.
   */
  readonly signal: AbortSignal;
  readonly #controller: Stopper;
  readonly #agentId: string;
  readonly #timeoutMs: number;
  #lastActivity = Date.now();
  /** Tool calls of the child in flight: they are bounded by their own timeouts. */
  #toolsRunning = 0;
  #timer: NodeJS.Timeout | undefined;
  /** True while the agent waits for its own background work on purpose. */
  readonly #waiting: () => boolean;
  #unfollow: (() => void) | undefined;

  constructor(
    agentId: string,
    timeoutMs: number,
    waiting: () => boolean = () => false,
    parent?: AbortSignal,
    /**
     * A controller of the child's own that already follows its parent (a foreground child's,
     * agents/detachable-child.ts): a stall aborts it, and the watchdog needs no signal of its own.
     */
    own?: Stopper,
  ) {
    this.#agentId = agentId;
    this.#timeoutMs = timeoutMs;
    this.#waiting = waiting;
    this.#controller = own ?? new AbortController();
    this.signal = this.#controller.signal;
    if (own) parent = undefined;
    // One listener, not a composite signal: the parent is the child's own signal (its Agent
    // call's or its task's), which nothing else follows, so no shared fan-out is needed for it.
    if (parent?.aborted) this.#controller.abort(parent.reason);
    else if (parent) {
      const onAbort = () => this.#controller.abort(parent.reason);
      parent.addEventListener('abort', onAbort, { once: true });
      this.#unfollow = () => parent.removeEventListener('abort', onAbort);
    }
    if (Number.isFinite(timeoutMs)) this.#arm(timeoutMs);
  }

  /**
   * Any event of the child's subtree is progress. Only a timestamp per event: the timer checks
   * it when it fires instead of being reset on every stream chunk.
   */
  observe(event: AgentEvent, now: number): void {
    this.#lastActivity = now;
    if (event.agentId !== this.#agentId) return;
    if (event.type === 'tool_start') this.#toolsRunning++;
    else if (event.type === 'tool_end') this.#toolsRunning--;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#unfollow?.();
    this.#unfollow = undefined;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#check(), ms);
    this.#timer.unref?.();
  }

  #check(): void {
    const idle = Date.now() - this.#lastActivity;
    const busy = this.#toolsRunning > 0 || this.#waiting();
    if (busy || idle < this.#timeoutMs) {
      this.#arm(Math.max(1, this.#timeoutMs - (busy ? 0 : idle)));
      return;
    }
    this.#controller.abort(
      new AgentStop(
        'stalled',
        this.#agentId,
        `Stalled: no model output and no tool activity for ${this.#timeoutMs} ms, so the agent was stopped.`,
      ),
    );
  }
}
