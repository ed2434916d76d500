// What a hook is given: the JSON a command hook reads on stdin and a library callback gets as
// its first argument, in Claude Code's snake_case shape plus warren's own fields.
import type { AgentStatus } from '../core/events.js';
import type { HookEvent, HookEventName } from '../core/hook-runner.js';

interface BaseInput<E extends HookEventName> {
  hook_event_name: E;
  session_id: string;
  /** The main agent's transcript (JSONL); null when the run writes none. */
  transcript_path: string | null;
  /** The working directory of the agent the event belongs to. */
  cwd: string;
  agent_id: string;
  /** `main` for the main agent (unless it runs as a definition), else the definition's name. */
  agent_type: string;
  /** warren's own: the agent that started this one; null for the main agent. */
  parent_agent_id: string | null;
  /** warren's own: 0 for the main agent, 1 for its children, … */
  depth: number;
  /** warren's own: where the agent sits in the tree, e.g. `main/Agent#2/explore`. */
  agent_path: string;
}

interface ToolInputFields {
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
}

export interface PreToolUseInput extends BaseInput<'PreToolUse'>, ToolInputFields {}

export interface PostToolUseInput extends BaseInput<'PostToolUse'>, ToolInputFields {
  /** The tool's result as the model reads it (warren's tools answer in text). */
  tool_response: string;
}

export interface PostToolUseFailureInput extends BaseInput<'PostToolUseFailure'>, ToolInputFields {
  error: string;
}

export interface UserPromptSubmitInput extends BaseInput<'UserPromptSubmit'> {
  prompt: string;
}

export interface SubagentStartInput extends BaseInput<'SubagentStart'> {
  /** warren's own: the task the sub-agent was given. */
  prompt: string;
}

interface StopFields {
  /** True once a stop hook has sent this agent back to work: let it stop now, or it loops. */
  stop_hook_active: boolean;
  last_assistant_message: string;
  /** warren's own: how the agent ended; stop hooks also fire for failures, not for cancels. */
  status: AgentStatus;
  /** warren's own: why it did not complete. */
  error?: string;
}

export interface StopInput extends BaseInput<'Stop'>, StopFields {}

export interface SubagentStopInput extends BaseInput<'SubagentStop'>, StopFields {
  /** The sub-agent's own transcript; null when the run writes none. */
  agent_transcript_path: string | null;
}

export interface SessionStartInput extends BaseInput<'SessionStart'> {
  source: 'startup' | 'resume';
  model: string;
}

export interface SessionEndInput extends BaseInput<'SessionEnd'> {
  reason: string;
}

export interface NotificationInput extends BaseInput<'Notification'> {
  message: string;
  /** `permission_prompt`: a person is about to be asked to allow a tool call. */
  notification_type: string;
}

export type AnyHookInput =
  | PreToolUseInput
  | PostToolUseInput
  | PostToolUseFailureInput
  | UserPromptSubmitInput
  | SubagentStartInput
  | StopInput
  | SubagentStopInput
  | SessionStartInput
  | SessionEndInput
  | NotificationInput;

/** The input of one event's hooks. */
export type HookInput<E extends HookEventName = HookEventName> = Extract<
  AnyHookInput,
  { hook_event_name: E }
>;

export interface HookSession {
  sessionId: string;
  transcriptPathFor(agentId: string): string | undefined;
  mainAgentId: string;
}

export function hookInputOf(event: HookEvent, session: HookSession): AnyHookInput {
  const { agent } = event;
  const base = {
    session_id: session.sessionId,
    transcript_path: session.transcriptPathFor(session.mainAgentId) ?? null,
    cwd: event.cwd,
    agent_id: agent.agentId,
    agent_type: agent.agentType,
    parent_agent_id: agent.parentId,
    depth: agent.depth,
    agent_path: agent.path,
  };
  switch (event.name) {
    case 'PreToolUse':
      return { hook_event_name: event.name, ...base, ...toolFields(event) };
    case 'PostToolUse':
      return {
        hook_event_name: event.name,
        ...base,
        ...toolFields(event),
        tool_response: event.toolResponse,
      };
    case 'PostToolUseFailure':
      return { hook_event_name: event.name, ...base, ...toolFields(event), error: event.error };
    case 'UserPromptSubmit':
    case 'SubagentStart':
      return { hook_event_name: event.name, ...base, prompt: event.prompt };
    case 'Stop':
    case 'SubagentStop': {
      const fields: StopFields = {
        stop_hook_active: event.stopHookActive,
        last_assistant_message: event.lastAssistantMessage,
        status: event.status,
        ...(event.error === undefined ? {} : { error: event.error }),
      };
      if (event.name === 'Stop') return { hook_event_name: event.name, ...base, ...fields };
      const agentTranscript = session.transcriptPathFor(agent.agentId) ?? null;
      return {
        hook_event_name: event.name,
        ...base,
        ...fields,
        agent_transcript_path: agentTranscript,
      };
    }
    case 'SessionStart':
      return { hook_event_name: event.name, ...base, source: event.source, model: event.model };
    case 'SessionEnd':
      return { hook_event_name: event.name, ...base, reason: event.reason };
    case 'Notification':
      return {
        hook_event_name: event.name,
        ...base,
        message: event.message,
        notification_type: event.notificationType,
      };
  }
}

function toolFields(event: { toolName: string; toolInput: unknown; toolUseId: string }) {
  return {
    tool_name: event.toolName,
    tool_input: event.toolInput,
    tool_use_id: event.toolUseId,
  };
}

/** What a matcher is tested against: a tool name, an agent type, a source, a reason. */
export function matcherSubject(event: HookEvent): string | undefined {
  switch (event.name) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return event.toolName;
    case 'SubagentStart':
    case 'SubagentStop':
      return event.agent.agentType;
    case 'SessionStart':
      return event.source;
    case 'SessionEnd':
      return event.reason;
    case 'Notification':
      return event.notificationType;
    // Claude Code has no matcher for these: every hook of the event runs.
    case 'UserPromptSubmit':
    case 'Stop':
      return undefined;
  }
}
