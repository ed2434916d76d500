// One step of the loop through its StepRunner (core/step-runner.ts), with the events the step's
// work makes passed on while it runs. Without a runner (a local run) the work's events are
// yielded as they come; a runner calls the work itself, so its events go through a channel.
import type { AgentEvent } from '../core/events.js';
import type { LoopStep, StepRunner } from '../core/step-runner.js';
import { EventChannel } from './event-channel.js';

/**
 * `work` yields what the step makes and `toEvent` turns each into the agent's event, as it is
 * made: one generator layer less per event than a work that made the events itself.
 */
export async function* runStep<W, T>(
  steps: StepRunner | undefined,
  step: LoopStep,
  work: () => AsyncGenerator<W, T>,
  toEvent: (made: W) => AgentEvent,
  passOn: () => readonly AgentEvent[] | undefined,
): AsyncGenerator<AgentEvent, T> {
  if (steps !== undefined) return yield* throughRunner(steps, step, work, toEvent, passOn);
  const source = work();
  let next = await source.next();
  while (!next.done) {
    yield toEvent(next.value);
    const passed = passOn();
    if (passed !== undefined) for (const event of passed) yield event;
    next = await source.next();
  }
  return next.value;
}

/** The work as the runner runs it (a replayed step makes no events, only its result). */
async function* throughRunner<W, T>(
  steps: StepRunner,
  step: LoopStep,
  work: () => AsyncGenerator<W, T>,
  toEvent: (made: W) => AgentEvent,
  passOn: () => readonly AgentEvent[] | undefined,
): AsyncGenerator<AgentEvent, T> {
  const channel = new EventChannel<AgentEvent>();
  const done = steps
    .run(step, async () => {
      const events = work();
      let next = await events.next();
      while (!next.done) {
        channel.push(toEvent(next.value));
        next = await events.next();
      }
      return next.value;
    })
    .finally(() => channel.close());
  // A failure is thrown below, after the events that came before it.
  done.catch(() => {});
  for await (const event of channel) {
    yield event;
    const passed = passOn();
    if (passed !== undefined) for (const more of passed) yield more;
  }
  return await done;
}
