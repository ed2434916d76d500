// The children whose Agent call is still waiting for them, and the one way to stop that wait:
// sending a child to the background (Ctrl+B in the terminal UI). Its call then returns its task
// at once, and the child goes on as a background task that notifies its parent when it ends.

export interface ForegroundChild {
  agentId: string;
  /** The agent whose call waits for it. */
  parentId: string;
  /** Ends the call's wait; false when it is too late (the child has ended) or too early. */
  toBackground(): boolean;
}

export class ForegroundChildren {
  readonly #children = new Map<string, ForegroundChild>();

  /** Registers a child its parent's call waits for; returns the function that forgets it. */
  add(child: ForegroundChild): () => void {
    this.#children.set(child.agentId, child);
    return () => {
      if (this.#children.get(child.agentId) === child) this.#children.delete(child.agentId);
    };
  }

  /** The children waited for, oldest first. */
  list(): Array<Pick<ForegroundChild, 'agentId' | 'parentId'>> {
    return [...this.#children.values()].map(({ agentId, parentId }) => ({ agentId, parentId }));
  }

  /**
   * Sends to the background the children `parentId`'s calls wait for, or only `agentId`.
   * Returns the ids of those sent.
   */
  toBackground(which: { parentId?: string; agentId?: string }): string[] {
    const sent: string[] = [];
    for (const child of [...this.#children.values()]) {
      if (which.agentId !== undefined && child.agentId !== which.agentId) continue;
      if (which.parentId !== undefined && child.parentId !== which.parentId) continue;
      if (child.toBackground()) sent.push(child.agentId);
    }
    return sent;
  }
}
