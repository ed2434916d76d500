// What the spawn side needs to run children on other machines: a RemoteExecutor (core/) and how
// this run uses it. The CLI (or a worker, for its children's children) plugs it into the run's
// SubagentRuntime; agents/ never imports an engine.
import type { RemoteExecutor } from '../core/remote-executor.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';

export interface RemotePort {
  readonly executor: RemoteExecutor;
  /** Every child runs remotely (`--executor restate`), not only those that ask for it. */
  readonly all?: boolean;
  /**
   * The run's own model as a spec: a child that inherits its parent's model gets this, since a
   * model object cannot travel. Undefined when the run's model is not a spec (a library's object).
   */
  readonly modelSpec?: string;
  /**
   * Where background children also post their endings, durably: the session's id, so a resumed
   * session finds what ended while it was down. Without it they post nowhere but here.
   */
  readonly inboxKey?: string;
}

/**
 * The port of a `kind: remote` definition (an A2A agent, docs/a2a.md): its executor talks to the
 * agent its card names. The CLI plugs in a2a/; a string says why this run cannot reach it.
 */
export type RemoteAgentPorts = (definition: AgentDefinition) => RemotePort | string;
