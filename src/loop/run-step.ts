// One step of the loop through its StepRunner (core/step-runner.ts), with the events the step's
// work makes passed on while it runs. Without a runner (a local run) the work's events are
// yielded as they come; a runner calls the work itself, so its events go through a channel.
import type { AgentEvent } from '../core/events.js';
import type { LoopStep, StepRunner } from '../core/step-runner.js';
import { EventChannel } from './event-channel.js';

export async function* runStep<T>(
  steps: StepRunner | undefined,
  step: LoopStep,
  work: () => AsyncGenerator<AgentEvent, T>,
  passOn: () => readonly AgentEvent[] | undefined,
): AsyncGenerator<AgentEvent, T> {
  const source = steps === undefined ? work() : throughRunner(steps, step, work);
  let next = await source.next();
  while (!next.done) {
    yield next.value;
    for (const passed of passOn() ?? NOTHING) yield passed;
    next = await source.next();
  }
  return next.value;
}

/** The work as the runner runs it (a replayed step makes no events, only its result). */
async function* throughRunner<T>(
  steps: StepRunner,
  step: LoopStep,
  work: () => AsyncGenerator<AgentEvent, T>,
): AsyncGenerator<AgentEvent, T> {
  const channel = new EventChannel<AgentEvent>();
  const done = steps
    .run(step, async () => {
      const events = work();
      let next = await events.next();
      while (!next.done) {
        channel.push(next.value);
        next = await events.next();
      }
      return next.value;
    })
    .finally(() => channel.close());
  // A failure is thrown below, after the events that came before it.
  done.catch(() => {});
  yield* channel;
  return await done;
}

const NOTHING: readonly AgentEvent[] = [];
