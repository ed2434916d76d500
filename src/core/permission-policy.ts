// The question the loop asks before every tool call, the shape of the answer, and the rules
// a policy is made of. The policy itself lives in permissions/.
import type { AgentRef } from './events.js';
import type { Tool } from './tool.js';

export interface PermissionRule {
  /** The rule as written; remembered decisions are keyed by it. */
  text: string;
  /** A tool name, possibly with `*` wildcards or an MCP server prefix (`mcp__fs`). */
  toolName: string;
  /** What goes between the parentheses; absent for a bare `Tool` rule. */
  specifier?: string;
  /** Where the rule came from, as a person finds it: `--allowed-tools`, `.warren/settings.json permissions.deny[0]`. */
  source: string;
  /**
   * Calls the rule does not cover after all (deny and ask rules): an opencode `permission` block's
   * later entries, as in `"*": deny` then `"git status": allow`.
   */
  except?: readonly PermissionRule[];
}

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';

export interface PermissionRequest {
  tool: Tool;
  input: unknown;
  cwd: string;
  /** Directories the agent's file tools may touch; reading outside them needs asking. */
  allowedDirs: readonly string[];
  /**
   * The asking agent: its id, type, path, and whether it runs in the background (nobody waits
   * on it turn by turn: a UI queues its prompts).
   */
  agent: AgentRef & { agentType: string; path?: string; background?: boolean };
  signal: AbortSignal;
  /**
   * What the call's PreToolUse hooks answered (a hook's deny never gets here): `allow` skips
   * the mode and asking, though deny rules still refuse; `ask` makes a person decide even where
   * allow rules, the mode or a remembered answer would let the call run.
   */
  hookDecision?: { behavior: 'allow' | 'ask'; reason: string };
  /** Called just before a person is asked, so they can be told (Notification hooks). */
  onAsk?(message: string): void;
}

export type PermissionDecision =
  | { behavior: 'allow' /** replaces the model's input when set */; input?: unknown }
  | {
      behavior: 'deny';
      /** Sent to the model as the tool's error result. */
      message: string;
      /** The denial as people read it, with what would allow the call; `message` when absent. */
      notice?: string;
    };

/** Why a call a PreToolUse hook wants a person to confirm was refused: nobody to ask. */
export function nobodyToAsk(call: string, reason: string): string {
  return `${call} was not run: a PreToolUse hook asks for a person to confirm it (${reason}), and there is no one to ask in this run.`;
}

export interface PermissionPolicy {
  /** Contract: must not throw; a failure to decide is a deny with a message. */
  decide(request: PermissionRequest): Promise<PermissionDecision>;
  /**
   * The policy of a sub-agent, never more permissive than this one. A policy without it is
   * shared with sub-agents as it is.
   */
  derive?(options: {
    mode?: PermissionMode;
    deny?: readonly PermissionRule[];
    ask?: readonly PermissionRule[];
    /** The child's own memory folder, which it may write without asking (deny rules still apply). */
    memoryDir?: string;
  }): PermissionPolicy;
  /**
   * Asks a person about a call that crosses a line no rule or mode opens by itself (an isolated
   * agent leaving its worktree); `reason` says what it crosses. Deny rules still deny, and the
   * answer is never remembered. Undefined when no one can be asked (print mode): the caller then
   * refuses the call. Contract: must not throw.
   */
  confirm?(request: PermissionRequest, reason: string): Promise<PermissionDecision | undefined>;
}
