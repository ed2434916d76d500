// What a protocol server (MCP, A2A) needs of warren: the definitions it publishes and a way to
// run one of them on a prompt, its events heard as they happen. The CLI assembles the host.

import type { AgentEvent, RunResult } from '../core/events.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import type { CanUseTool } from '../permissions/create-permission-policy.js';

export interface ServedRun {
  /** The definition to run as the main agent of a new session. */
  agent: string;
  prompt: string;
  /** Aborting it stops the agent and every child it started. */
  signal: AbortSignal;
  /** Every event of the run's tree, background children included, once, as it happens. */
  onEvent: (event: AgentEvent) => void;
  /**
   * Asks the caller about a call no rule decides. Without it such calls are decided by the
   * server's permission mode (docs/mcp-serve.md).
   */
  canUseTool?: CanUseTool;
  /**
   * What the caller's own budget has left, when it passed that on: the run gets the smaller of
   * this and the server's own limit.
   */
  budget?: { timeBudgetMs?: number; tokenBudget?: number };
  /** The caller's W3C traceparent: the run's spans continue its trace. */
  traceparent?: string;
  /**
   * A session an earlier server started for this work and did not finish (it was stopped): the
   * run goes on with its conversation, `prompt` as the next message, and restarts its tasks.
   */
  resume?: string;
  /** Told the run's session id before it starts, so a server can record where the work lives. */
  onSession?: (sessionId: string) => void;
}

export interface AgentHost {
  /** The definitions served, in the order they were chosen. */
  readonly definitions: readonly AgentDefinition[];
  /** The folder of the host's sessions: a server keeps what must outlive it beside them. */
  readonly sessionDir: string;
  /** Runs one agent to the end (its background children included) in a session of its own. */
  run(run: ServedRun): Promise<RunResult & { sessionId: string }>;
  /** Stops what still runs and flushes spans; call once. */
  close(): Promise<void>;
}
