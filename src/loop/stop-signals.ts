// The signals that stop an agent: its own cancel signal, following its caller's, and the time
// budget as two more: `expired` at the deadline (stop what runs) and `ended` when the agent's
// wind-down window closes (stop waiting for anything). No timers at all without a deadline.

export interface Deadline {
  readonly expired: AbortSignal;
  readonly ended: AbortSignal;
  clear(): void;
}

/** Timers for a deadline `at` and the end of its wind-down `endsAt`; none when `at` is Infinity. */
export function startDeadline(at: number, endsAt: number): Deadline | undefined {
  if (!Number.isFinite(at)) return undefined;
  const expired = new AbortController();
  const ended = new AbortController();
  let windDown: NodeJS.Timeout | undefined;
  const timer = setTimeout(
    () => {
      expired.abort();
      windDown = setTimeout(() => ended.abort(), Math.max(0, endsAt - Date.now()));
    },
    Math.max(0, at - Date.now()),
  );
  return {
    expired: expired.signal,
    ended: ended.signal,
    clear() {
      clearTimeout(timer);
      clearTimeout(windDown);
    },
  };
}

/**
 * The reason of an agent's own signal when the agent ends: the AbortError `abort()` would make,
 * made once. A new DOMException per agent captured a stack each time, a measurable share of
 * what a thousand short children cost.
 */
const AGENT_ENDED = new DOMException('This operation was aborted', 'AbortError');

/**
 * A signal of the agent's own that aborts when the caller's does. `end` aborts it too, so
 * whatever the agent started stops with it, and stops listening to the caller.
 */
export function followSignal(caller: AbortSignal | undefined): {
  signal: AbortSignal;
  end(): void;
} {
  const own = new AbortController();
  const onAbort = () => own.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: own.signal,
    end() {
      caller?.removeEventListener('abort', onAbort);
      own.abort(AGENT_ENDED);
    },
  };
}

/** A signal that aborts when either does. */
export function either(a: AbortSignal, b: AbortSignal | undefined): AbortSignal {
  return b ? AbortSignal.any([a, b]) : a;
}

/**
 * The interrupt source of an agent (`interrupt` in the loop options): each `interrupt()` ends
 * the current turn, and the next turn follows a fresh signal.
 */
export class Interrupter {
  #controller = new AbortController();

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  interrupt(): void {
    const current = this.#controller;
    this.#controller = new AbortController();
    current.abort(new Error('The turn was interrupted.'));
  }
}
