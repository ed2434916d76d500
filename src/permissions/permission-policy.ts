// The question the loop asks before every tool call, and the shape of the answer.
import type { AgentRef } from '../loop/events.js';
import type { Tool } from '../tools/tool.js';
import type { PermissionRule } from './permission-rule.js';

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';

export interface PermissionRequest {
  tool: Tool;
  input: unknown;
  cwd: string;
  /** Directories the agent's file tools may touch; reading outside them needs asking. */
  allowedDirs: readonly string[];
  agent: AgentRef & { agentType: string };
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
