// The open inboxes of a run's agents: where an ending goes (its owner's while that loop runs,
// else the nearest live ancestor's), and the root inbox that passes background agents' events
// into the run's stream.
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { AgentInbox } from './agent-inbox.js';

export class AgentInboxes {
  readonly #open = new Map<string, AgentInbox>();
  /** Every agent that had an inbox, to find the nearest live ancestor of an ended owner. */
  readonly #refs = new Map<string, AgentRef>();
  #root: AgentInbox | undefined;

  add(inbox: AgentInbox, options: { root?: boolean } = {}): void {
    this.#open.set(inbox.ref.agentId, inbox);
    this.#refs.set(inbox.ref.agentId, inbox.ref);
    if (options.root) this.#root = inbox;
  }

  /** The agent's inbox until its loop has ended. */
  get(agentId: string): AgentInbox | undefined {
    return this.#open.get(agentId);
  }

  /** The agent's inbox while its loop runs; else the nearest ancestor's that does. */
  live(agentId: string): AgentInbox | undefined {
    for (let id: string | null = agentId; id; id = this.#refs.get(id)?.parentId ?? null) {
      const inbox = this.#open.get(id);
      if (inbox && !inbox.closed) return inbox;
    }
    return undefined;
  }

  /** Into the run's stream, through the main agent's inbox while it is open. */
  passEvent(event: AgentEvent): void {
    this.#root?.passEvent(event);
  }

  /** The agent's loop ended: what it never read goes to its nearest live ancestor. */
  close(inbox: AgentInbox): void {
    this.#open.delete(inbox.ref.agentId);
    if (inbox === this.#root) this.#root = undefined;
    const up = inbox.ref.parentId ? this.live(inbox.ref.parentId) : undefined;
    for (const item of inbox.leftOver()) if (!up?.push(item)) break;
  }
}
