// The loop's two steps with an agent's inbox: before a model call, what arrived joins the
// conversation; when the model ends its turn, wait while the agent's background work runs.
import type { AgentEvent } from '../core/events.js';
import type { Inbox } from '../core/inbox.js';
import type { Message } from '../core/messages.js';

/**
 * What arrived from background work joins the conversation (`join`), and events of background
 * agents to pass on: the events to yield, as a plain list (no generator hop on every turn).
 */
export function deliverInbox(
  inbox: Inbox | undefined,
  join: (message: Message) => AgentEvent,
): readonly AgentEvent[] {
  if (!inbox) return [];
  const passed = inbox.passOn();
  const delivery = inbox.take();
  if (!delivery) return passed;
  const message = join(delivery.message);
  // In the conversation and recorded (onEvent): a restart neither loses nor repeats it.
  delivery.delivered();
  return [...passed, message];
}

/**
 * The model ended its turn: while background tasks the agent started run, wait for what they
 * send, passing on background events meanwhile. True to go on (something arrived, or a limit
 * needs checking); false to end. No inbox (or one the host does not wait on): false.
 */
export async function* awaitInbox(
  inbox: Inbox | undefined,
  stop: AbortSignal,
): AsyncGenerator<AgentEvent, boolean> {
  if (!inbox) return false;
  for (;;) {
    // `stop` is the hard stop: children still wind down (grace turns) after the deadline.
    const state = await inbox.wait(stop);
    for (const passed of inbox.passOn()) yield passed;
    if (state === 'idle') return false;
    if (state !== 'events') return true;
  }
}
