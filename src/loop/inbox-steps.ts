// The loop's two steps with an agent's inbox: before a model call, what arrived joins the
// conversation; when the model ends its turn, wait while the agent's background work runs.
import type { Inbox } from '../core/inbox.js';
import type { Message } from '../core/messages.js';

/** What arrived from background work joins the conversation (`join`: recorded and passed on). */
export function deliverInbox(inbox: Inbox | undefined, join: (message: Message) => void): void {
  const delivery = inbox?.take();
  if (!delivery) return;
  join(delivery.message);
  // In the conversation and recorded (onEvent): a restart neither loses nor repeats it.
  delivery.delivered();
}

/**
 * The model ended its turn: while background tasks the agent started run, wait for what they
 * send (their events reach the stream meanwhile, through `Inbox.passTo`). True to go on
 * (something arrived, or a limit needs checking); false to end. No inbox (or one the host does
 * not wait on): false.
 */
export async function awaitInbox(inbox: Inbox | undefined, stop: AbortSignal): Promise<boolean> {
  if (!inbox) return false;
  // `stop` is the hard stop: children still wind down (grace turns) after the deadline.
  return (await inbox.wait(stop)) !== 'idle';
}
