// The one way news reaches a running agent: notifications of the background tasks it started and
// messages other agents send it. The loop takes what arrived before every model call and, when
// the model ends its turn, waits for what its background work will still send.
import type { AgentEvent } from './events.js';
import type { UserMessage } from './messages.js';

/** What arrived, as one user message, and how to record that the agent has it. */
export interface InboxDelivery {
  message: UserMessage;
  /**
   * Called once the message is in the conversation (and so in the transcript): from then on a
   * restart neither loses nor repeats it.
   */
  delivered(): void;
}

/** Why `wait` returned. */
export type InboxState =
  /** There is a delivery to take. */
  | 'ready'
  /** Nothing can arrive any more: none of the agent's tasks is running. */
  | 'idle'
  /** The signal aborted first. */
  | 'aborted';

export interface Inbox {
  /** Everything that arrived since the last take, as one message; undefined when nothing did. */
  take(): InboxDelivery | undefined;
  /**
   * Resolves at once when there is something to take or pass on, or nothing more can come;
   * otherwise when that changes or the signal aborts.
   */
  wait(signal: AbortSignal): Promise<InboxState>;
  /**
   * From now on, events of background agents go to `sink` (the agent's stream) as they are
   * made, those that came before first, so a host reading the run sees them; only the main
   * agent's inbox has any.
   */
  passTo(sink: (event: AgentEvent) => void): void;
  /**
   * The agent's loop ends: nothing is taken any more. Tasks it started that still run are
   * stopped with it, unless the host keeps them (`waitForBackground: false`).
   */
  close(): void;
}

/** The loop options about background work: where news arrives, and whether to wait for it. */
export interface InboxOptions {
  /** Runs in the background: shown to tools and permission prompts (`ctx.agent.background`). */
  background?: boolean;
  /**
   * Where notifications of the agent's background tasks (and messages from other agents)
   * arrive: taken before every model call, waited on when the model ends its turn.
   */
  inbox?: Inbox;
  /**
   * When the model ends its turn while background tasks the agent started still run, wait for
   * them and go on with their notifications (default). With false the run ends there and the
   * host manages the tasks.
   */
  waitForBackground?: boolean;
}
