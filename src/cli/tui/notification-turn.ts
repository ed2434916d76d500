// What wakes the main agent of the terminal UI between prompts: notifications of its background
// tasks that ended while no turn ran. They become a turn of their own, as in print mode, rather
// than riding along with the person's next prompt (which would then follow the words "no user
// input has occurred").
import type { TaskManager } from '../../tasks/task-manager.js';
import type { NewEntry } from './view-items.js';

/** What the screen shows where a person's prompt would be. */
export const BACKGROUND_TURN: NewEntry = {
  kind: 'notice',
  tone: 'info',
  text: 'Background work reported: the agent reads it.',
};

export interface PendingNotifications {
  /** The notifications, as the agent reads them: one user message of their own. */
  text: string;
  /** Records them as delivered: call as they become the prompt of a turn. */
  delivered(): void;
}

/** What ended for the main agent and has not reached it, or undefined when nothing has. */
export function pendingNotifications(
  manager: TaskManager,
  mainAgentId: string,
): PendingNotifications | undefined {
  // The manager's own inbox for the agent holds exactly what was never delivered; it is closed
  // at once, and keeps the tasks running (they belong to the session, not to this look).
  const inbox = manager.inboxFor(
    { agentId: mainAgentId, parentId: null, depth: 0 },
    { keepTasks: true },
  );
  const delivery = inbox.take();
  inbox.close();
  if (!delivery) return undefined;
  return { text: delivery.message.content, delivered: delivery.delivered };
}

/** Starts a turn (`start`) with what is pending for the main agent; true when there was some. */
export function wakeWith(
  manager: TaskManager,
  mainAgentId: string,
  start: (text: string) => void,
): boolean {
  const pending = pendingNotifications(manager, mainAgentId);
  if (!pending) return false;
  // Delivered first: the turn's own inbox would otherwise hand the same notifications over again.
  pending.delivered();
  start(pending.text);
  return true;
}
