// One host session's events, each handed on once: its transcript line on disk first, then every
// subscriber (print mode's output, the terminal UI, the protocol servers) in the order they came.
// Print mode, the UI and every host after them read a session through this, never a run alone.
// Events come in one way only, a run's `onEvent`: every event is recorded there as it is made.
import type { AgentEvent, RunResult } from '../core/events.js';
import type { TranscriptWriter } from './transcript-writer.js';

export type EventListener = (event: AgentEvent) => void;

export interface EventFeedOptions {
  /** Where the session's events are written; the feed closes it. */
  transcript: TranscriptWriter;
  /**
   * Found before the run began (untrusted servers, unknown tools, unreadable instructions):
   * said once, as the main agent's `warning` events, right after its `run_start`.
   */
  warnings?: readonly string[];
}

export class EventFeed {
  readonly transcript: TranscriptWriter;
  readonly #listeners = new Set<EventListener>();
  #warnings: string[];

  constructor(options: EventFeedOptions) {
    this.transcript = options.transcript;
    this.#warnings = [...(options.warnings ?? [])];
  }

  /** Hears every event from now on; returns a function that stops it. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Takes an event of the session: give it as a run's `onEvent` (and its task manager's), which
   * every event reaches once, as it is made, whether a loop made it or not (a session's
   * warnings, a child's worktree, background work that outlives the stream). An event after
   * `close` is dropped. Like any `onEvent`, listeners must not throw: a throw ends the run.
   */
  readonly record = (event: AgentEvent): void => {
    if (this.transcript.closed) return;
    // On disk before anyone is shown it: what a user saw survives a crash.
    this.transcript.write(event);
    for (const listener of this.#listeners) listener(event);
    if (event.type === 'run_start' && event.agentId === this.transcript.mainAgentId) {
      const { agentId } = event;
      for (const message of this.#warnings.splice(0)) {
        this.record({ agentId, parentId: null, depth: 0, type: 'warning', message });
      }
    }
  };

  /**
   * Reads a run whose `onEvent` is `record` to its end; returns the main agent's result. Its
   * stream carries nothing `onEvent` did not: the feed has heard each event already.
   */
  async drain(run: AsyncGenerator<AgentEvent, RunResult>): Promise<RunResult> {
    let step: IteratorResult<AgentEvent, RunResult> | undefined;
    try {
      for (step = await run.next(); !step.done; step = await run.next());
      return step.value;
    } finally {
      // Read no further (the host stopped): the run stops as after a `break`, its servers and
      // children with it.
      if (step && !step.done) await run.return(undefined as never);
    }
  }

  /** The warnings not said yet (the main agent never started): a next feed of the host says them. */
  unsaidWarnings(): string[] {
    return this.#warnings.splice(0);
  }

  get closed(): boolean {
    return this.transcript.closed;
  }

  /** Closes the transcript: later events (late background work) are dropped. Safe to call twice. */
  close(): void {
    this.transcript.close();
  }
}
