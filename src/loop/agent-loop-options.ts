// What a run of the loop is given: the model, tools, conversation, limits, identity in the tree,
// hooks, and how it meets the work beside it (inbox, interrupt). agent-loop.ts reads these.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Budget } from '../core/budget.js';
import type { FileState } from '../core/file-state.js';
import type { HookRunner } from '../core/hook-runner.js';
import type { InboxOptions } from '../core/inbox.js';
import type { InheritedOptions } from '../core/inherited-options.js';
import type { FilePart, Message } from '../core/messages.js';
import type { OutputSchema } from '../core/output-schema.js';
import type { PermissionPolicy } from '../core/permission-policy.js';
import type { StepRunner } from '../core/step-runner.js';
import type { Tool } from '../core/tool.js';
import type { ModelSettings } from '../model/model-settings.js';

export interface AgentLoopOptions extends InheritedOptions, InboxOptions {
  /**
   * An AI SDK language model (`resolveModel()` turns a spec such as `anthropic:claude-sonnet-4-5`
   * into one). A promise of one lets the run start while the provider loads.
   */
  model: LanguageModelV4 | PromiseLike<LanguageModelV4>;
  systemPrompt?: string;
  tools?: readonly Tool[];
  /**
   * The tool list the model is shown, when it differs from `tools`: a forked child is shown
   * its parent's, so that its requests open with the same prefix and read the parent's prompt
   * cache. A call of a tool shown here but not in `tools` is refused. Default: `tools`.
   */
  shownTools?: readonly Tool[];
  /** Earlier conversation to continue (resume, forked context). */
  messages?: readonly Message[];
  /** Working directory of the agent's tools. Default: `process.cwd()`. */
  cwd?: string;
  /** Directories file tools may touch. Default: `[cwd]`. */
  allowedDirs?: readonly string[];
  /** Model turns before the run ends with `max_turns`. Default: no limit. */
  maxTurns?: number;
  /** A budget node shared with the caller; or set the limits below for a fresh one. */
  budget?: Budget;
  timeBudgetMs?: number;
  tokenBudget?: number;
  costBudgetUsd?: number;
  /**
   * After the time budget, how long the whole tree has to stop its tools and give its final
   * reports: the run ends at most this long after `timeBudgetMs`, at any depth. Default 60 s.
   * With `budget`, the budget's own window applies.
   */
  windDownMs?: number;
  signal?: AbortSignal;
  permissions?: PermissionPolicy;
  fileState?: FileState;
  agentId?: string;
  parentId?: string | null;
  depth?: number;
  /** The agent's path in the tree (see the `run_start` event). Default: `main`. */
  agentPath?: string;
  /** The parent's tool call that started this agent; reported in `run_start`. */
  parentToolCallId?: string;
  /** `main` for the top agent; a definition's name for a sub-agent. */
  agentType?: string;
  description?: string;
  /**
   * The agent's hooks: around its prompt, each tool call and its stop. Not inherited: whoever
   * starts a sub-agent gives it its own (hooks/ builds them).
   */
  hooks?: HookRunner;
  /** The agent must finish by calling `StructuredOutput` with a value this schema accepts. */
  outputSchema?: OutputSchema;
  /**
   * Ends the current turn when its signal aborts (the model call and the tools in flight stop)
   * without cancelling the agent: background tasks keep running. The source replaces the
   * signal after each interrupt.
   */
  interrupt?: { readonly signal: AbortSignal };
  /**
   * Runs each model call and each tool call as a step (core/step-runner.ts): a durable engine's
   * runner journals them, so a run replayed after a crash does not call the model or a tool
   * again for a step it finished. Not inherited: a child's runner is its executor's business.
   * Default: each step runs directly.
   */
  steps?: StepRunner;
  /**
   * This agent's reasoning effort, temperature and prompt-cache lifetime (a definition's, or
   * the Agent call's `effort`). Not inherited: a child's come from its own definition and call.
   */
  modelSettings?: ModelSettings;
  /** Images or audio sent with the prompt, beside its text. Not inherited. */
  promptFiles?: FilePart[];
}

export interface AgentLoopParams {
  prompt: string;
  options: AgentLoopOptions;
}
