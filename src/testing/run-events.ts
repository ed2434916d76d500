// Running an agent to its end in a test: every event it yielded, in order, and the result it
// returned, from agentLoop() or query() alike.
import type { AgentEvent, AgentEventOf, AgentEventType, RunResult } from '../core/events.js';

/**
 * Drains the run, keeping each event and showing it to `onEvent` as it comes (to act on the
 * run midway); the result is the generator's return value.
 */
export async function runToEnd<Result extends RunResult>(
  run: AsyncGenerator<AgentEvent, Result>,
  onEvent?: (event: AgentEvent) => void,
): Promise<{ events: AgentEvent[]; result: Result }> {
  const events: AgentEvent[] = [];
  let step = await run.next();
  while (!step.done) {
    events.push(step.value);
    onEvent?.(step.value);
    step = await run.next();
  }
  return { events, result: step.value };
}

/** The events of one type, typed as such. */
export function ofType<T extends AgentEventType>(
  events: readonly AgentEvent[],
  type: T,
): AgentEventOf<T>[] {
  return events.filter((event): event is AgentEventOf<T> => event.type === type);
}
