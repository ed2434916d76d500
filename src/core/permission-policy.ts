// The question the loop asks before every tool call, the shape of the answer, and the rules
// a policy is made of. The policy itself lives in permissions/.
import type { AgentIdentity, Tool } from './tool.js';

export interface PermissionRule {
  /** The rule as written; remembered decisions are keyed by it. */
  text: string;
  /** A tool name, possibly with `*` wildcards or an MCP server prefix (`mcp__fs`). */
  toolName: string;
  /** What goes between the parentheses; absent for a bare `Tool` rule. */
  specifier?: string;
  /** Where the rule came from, as a person finds it: `--allowed-tools`, `.warren/settings.json permissions.deny[0]`. */
  source: string;
}

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';

export interface PermissionRequest {
  tool: Tool;
  input: unknown;
  cwd: string;
  /** Directories the agent's file tools may touch; reading outside them needs asking. */
  allowedDirs: readonly string[];
  /** The asking agent: its id, type, and whether it runs in the background (a UI queues those). */
  agent: AgentIdentity;
  signal: AbortSignal;
}

export type PermissionDecision =
  | { behavior: 'allow' /** replaces the model's input when set */; input?: unknown }
  | { behavior: 'deny' /** sent to the model as the tool's error result */; message: string };

export interface PermissionPolicy {
  /** Contract: must not throw; a failure to decide is a deny with a message. */
  decide(request: PermissionRequest): Promise<PermissionDecision>;
  /**
   * The policy of a sub-agent, never more permissive than this one. A policy without it is
   * shared with sub-agents as it is.
   */
  derive?(options: { mode?: PermissionMode; deny?: readonly PermissionRule[] }): PermissionPolicy;
}
