// What a tool may know of the agent that called it: enough to start a child agent from it
// (the Agent tool), and nothing it could use to change the caller's run.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { Tool } from '../tools/tool.js';
import type { AgentLoopOptions } from './agent-loop.js';
import type { Budget } from './budget.js';
import type { Message } from './messages.js';

export interface RunContext {
  /** The options the agent was started with; what a child inherits unless told otherwise. */
  readonly options: Readonly<AgentLoopOptions>;
  /**
   * Aborts when the agent is cancelled (by its caller or an ancestor), not when its time budget
   * ends: the signal a child follows. Undefined when nothing can cancel the run.
   */
  readonly cancelSignal: AbortSignal | undefined;
  readonly model: LanguageModelV4;
  /** The agent's tools: a child's tools are always a subset of these. */
  readonly tools: readonly Tool[];
  /** The agent's budget node; a child's budget hangs below it. */
  readonly budget: Budget;
  readonly permissions: PermissionPolicy | undefined;
  /** The conversation so far, live: the assistant message that made the current call is last. */
  readonly messages: readonly Message[];
  /** Model turns the agent has left; Infinity without a cap. */
  readonly turnsLeft: number;
}
