// The traceparent of every agent span the tracer starts, by agent id, for children that run in
// other processes: they ask right after their `run_start`, which the tracer reads a moment later
// from the event stream, so a question may wait for it (never long: see WAIT_MS).
import type { TraceContextSource } from '../core/trace-context.js';

/** How long a question waits for the span before the child goes on without a trace context. */
const WAIT_MS = 2000;

export interface SpanIds {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

export class AgentTraceContexts implements TraceContextSource {
  readonly #known = new Map<string, string>();
  readonly #waiting = new Map<string, Array<(traceparent: string | undefined) => void>>();
  #closed = false;

  /** The tracer started `agentId`'s span. */
  started(agentId: string, ids: SpanIds): void {
    const flags = (ids.traceFlags & 0xff).toString(16).padStart(2, '0');
    const traceparent = `00-${ids.traceId}-${ids.spanId}-${flags}`;
    this.#known.set(agentId, traceparent);
    for (const resolve of this.#waiting.get(agentId) ?? []) resolve(traceparent);
    this.#waiting.delete(agentId);
  }

  traceparentOf(agentId: string): Promise<string | undefined> {
    const known = this.#known.get(agentId);
    if (known !== undefined || this.#closed) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), WAIT_MS);
      const waiters = this.#waiting.get(agentId) ?? [];
      waiters.push((traceparent) => {
        clearTimeout(timer);
        resolve(traceparent);
      });
      this.#waiting.set(agentId, waiters);
    });
  }

  /** Tracing ended: questions are answered at once, without a context. */
  close(): void {
    this.#closed = true;
    for (const waiters of this.#waiting.values()) for (const resolve of waiters) resolve(undefined);
    this.#waiting.clear();
  }
}
