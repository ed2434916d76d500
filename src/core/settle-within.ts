// Waiting for work with a way out: the wait ends when the work settles, the time is up or the
// signal aborts, whichever comes first, and leaves no timer or listener behind.

export interface SettleLimits {
  /** Stop waiting after this long. */
  timeoutMs?: number;
  /** Stop waiting when this aborts (at once if it already has). */
  signal?: AbortSignal;
}

/** Settles as `work` does, or resolves when a limit comes first; the caller looks at what it has. */
export async function settleWithin(work: Promise<unknown>, limits: SettleLimits): Promise<void> {
  const stops: Promise<unknown>[] = [work];
  const cleanups: Array<() => void> = [];
  if (limits.timeoutMs !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    stops.push(new Promise((resolve) => (timer = setTimeout(resolve, limits.timeoutMs))));
    cleanups.push(() => clearTimeout(timer));
  }
  const { signal } = limits;
  if (signal) {
    let onAbort = () => {};
    stops.push(new Promise((resolve) => (onAbort = () => resolve(undefined))));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
  }
  try {
    await Promise.race(stops);
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}
