// One step of the loop through its StepRunner (core/step-runner.ts), with the events the step's
// work makes passed on while it runs: the loop's generator cannot yield from inside the work,
// so the events go through a channel. A replayed step makes no events, only its result.
import type { AgentEvent } from '../core/events.js';
import { directSteps, type LoopStep, type StepRunner } from '../core/step-runner.js';
import { EventChannel } from './event-channel.js';

export async function* runStep<T>(
  steps: StepRunner | undefined,
  step: LoopStep,
  work: (emit: (event: AgentEvent) => void) => Promise<T>,
  passOn: () => readonly AgentEvent[] | undefined,
): AsyncGenerator<AgentEvent, T> {
  const channel = new EventChannel<AgentEvent>();
  const done = (steps ?? directSteps)
    .run(step, () => work((event) => channel.push(event)))
    .finally(() => channel.close());
  // A failure is thrown below, after the events that came before it.
  done.catch(() => {});
  for await (const made of channel) {
    yield made;
    for (const passed of passOn() ?? NOTHING) yield passed;
  }
  return await done;
}

const NOTHING: readonly AgentEvent[] = [];
