// The time budget as two signals: `expired` at the deadline (stop what runs) and `over` a
// wind-down later (stop waiting for tools that did not stop). Nothing at all without a deadline.

export interface Deadline {
  readonly expired: AbortSignal;
  readonly over: AbortSignal;
  clear(): void;
}

export function startDeadline(at: number, windDownMs: number): Deadline | undefined {
  if (!Number.isFinite(at)) return undefined;
  const expired = new AbortController();
  const over = new AbortController();
  let windDown: NodeJS.Timeout | undefined;
  const timer = setTimeout(
    () => {
      expired.abort();
      windDown = setTimeout(() => over.abort(), windDownMs);
    },
    Math.max(0, at - Date.now()),
  );
  return {
    expired: expired.signal,
    over: over.signal,
    clear() {
      clearTimeout(timer);
      clearTimeout(windDown);
    },
  };
}

const NEVER = new AbortController().signal;

/** A signal that aborts when either does; the one given when the other is absent. */
export function either(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b ?? NEVER;
}
