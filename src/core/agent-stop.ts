// Why an agent's cancel signal aborted, when it is more than "cancelled": the reason a caller
// aborts with, so the loop can end the run with the right status and say why.
import { hasErrorMark } from './error-mark.js';

/** The abort reason that ends one agent as `stalled` or `cancelled`, with a reason for people. */
export class AgentStop extends Error {
  readonly isAgentStop = true;
  readonly status: 'cancelled' | 'stalled';
  /** The agent this is about; its descendants, following its signal, are just cancelled. */
  readonly agentId: string;

  constructor(status: 'cancelled' | 'stalled', agentId: string, reason: string) {
    super(reason);
    this.name = 'AbortError';
    this.status = status;
    this.agentId = agentId;
  }

  static isInstance(value: unknown): value is AgentStop {
    return hasErrorMark(value, 'isAgentStop');
  }
}
