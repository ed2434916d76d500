// The one interface between the loop and hooks: the loop says what is about to happen or has
// just happened to an agent, and gets back what the hooks decided. Command hooks, library hooks
// and a definition's own hooks are all behind it (hooks/); the loop never sees which ran.
import type { AgentRef, AgentStatus } from './events.js';

/** The events warren fires, named as in Claude Code's settings. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionStart',
  'SessionEnd',
  'Notification',
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The agent an event belongs to: every event carries it, at every depth. */
export interface HookAgent extends AgentRef {
  agentType: string;
  /** Where it sits in the tree, e.g. `main/Agent#2/explore` (see the `run_start` event). */
  path: string;
}

interface ToolEventFields {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
}

/** What happened, as the loop (or the session around it) reports it. */
export type HookEvent = { agent: HookAgent; cwd: string } & (
  | ({ name: 'PreToolUse' } & ToolEventFields)
  | ({ name: 'PostToolUse'; toolResponse: string } & ToolEventFields)
  | ({ name: 'PostToolUseFailure'; error: string } & ToolEventFields)
  /** The main agent takes its prompt (UserPromptSubmit) or a sub-agent starts (SubagentStart). */
  | { name: 'UserPromptSubmit' | 'SubagentStart'; prompt: string }
  /** The main agent (Stop) or a sub-agent (SubagentStop) ends, however it ends but cancelled. */
  | {
      name: 'Stop' | 'SubagentStop';
      lastAssistantMessage: string;
      /** True once a stop hook has made this agent go on: a hook that sees it should let it stop. */
      stopHookActive: boolean;
      status: AgentStatus;
      error?: string;
    }
  | { name: 'SessionStart'; source: 'startup' | 'resume'; model: string }
  | { name: 'SessionEnd'; reason: string }
  | { name: 'Notification'; message: string; notificationType: string }
);

/** How a finished agent's output may reach its parent (the handoff check). */
export interface HandoffVerdict {
  /** `flag`: passed on with a warning; `block`: withheld, the parent gets an error result. */
  decision: 'allow' | 'flag' | 'block';
  reason?: string;
}

/** What the hooks of one event decided, merged (the strictest answer wins). */
export interface HookOutcome {
  /** PreToolUse: deny (never overridden by any mode) > ask (a person decides) > allow (no asking). */
  permission?: { decision: 'allow' | 'deny' | 'ask'; reason: string };
  /** PreToolUse: the input that replaces the model's (checked against the tool's schema again). */
  updatedInput?: Record<string, unknown>;
  /**
   * A hook blocked, and why: UserPromptSubmit (the prompt is refused), PostToolUse and
   * PostToolUseFailure (the reason reaches the model), Stop and SubagentStop (the agent goes
   * on, with the reason as its next instruction).
   */
  block?: string;
  /** Text for the model: UserPromptSubmit, SubagentStart, SessionStart, PostToolUse(Failure). */
  context?: string;
  /** SubagentStop: the hooks' part of the handoff check. */
  handoff?: HandoffVerdict;
  /** Stop and SubagentStop of a failed agent: why its failure must end the whole run. */
  fatal?: string;
  /** What went wrong running the hooks (a timeout, bad JSON); for people, not the model. */
  warnings: string[];
}

export interface HookRunner {
  /**
   * Runs the hooks that match the event, all at once, and merges what they decided.
   * Contract: never rejects; a hook that fails, hangs or answers nonsense is a warning. The
   * signal stops the hooks still running (they are killed).
   */
  run(event: HookEvent, signal: AbortSignal): Promise<HookOutcome>;
}

/** The event fired when an agent takes its prompt: sub-agents have their own. */
export function startEventOf(agent: AgentRef): 'UserPromptSubmit' | 'SubagentStart' {
  return agent.parentId === null ? 'UserPromptSubmit' : 'SubagentStart';
}

/** The event fired when an agent ends: sub-agents have their own. */
export function stopEventOf(agent: AgentRef): 'Stop' | 'SubagentStop' {
  return agent.parentId === null ? 'Stop' : 'SubagentStop';
}
