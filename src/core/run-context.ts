// What a tool that starts agents (Agent, delegate_to_<name>) knows of the agent that called it:
// enough to derive a child from it, nothing it could use to change the caller's run.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Budget } from './budget.js';
import type { InheritedOptions } from './inherited-options.js';
import type { Message } from './messages.js';
import type { PermissionPolicy } from './permission-policy.js';
import type { Tool } from './tool.js';

export interface RunContext {
  /** The agent's path in the tree (`main/Agent#1/explore`); a child's path extends it. */
  readonly agentPath: string;
  /** How the agent calls its model and tools; a child makes its calls the same way. */
  readonly inherited: Readonly<InheritedOptions>;
  /**
   * Aborts when the agent is cancelled (by its caller or an ancestor), not when its time budget
   * ends: the signal a child follows.
   */
  readonly cancelSignal: AbortSignal;
  readonly model: LanguageModelV4;
  /** The agent's tools: a child's tools are always a subset of these. */
  readonly tools: readonly Tool[];
  /**
   * The tool list the agent's model is shown: `tools`, or for a forked agent its parent's list.
   * A forked child is shown the same list, so its requests share the cached prefix.
   */
  readonly shownTools: readonly Tool[];
  /** The agent's budget node; a child's budget hangs below it. */
  readonly budget: Budget;
  readonly permissions: PermissionPolicy | undefined;
  /** The conversation so far, live: the assistant message that made the current call is last. */
  readonly messages: readonly Message[];
  /** Model turns the agent has left; Infinity without a cap. */
  readonly turnsLeft: number;
}
