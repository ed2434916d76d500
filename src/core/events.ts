// The closed union of what a run reports, in the order it happens. Every surface (library,
// CLI output formats, transcripts, later the terminal UI) is a reader of this one stream.
import type { HandoffVerdict } from './hook-runner.js';
import type { AssistantMessage, Message } from './messages.js';
import type { TaskKind, TaskProgress, TaskStatus } from './tasks.js';
import type { Usage } from './usage.js';
import type { WorkflowEvent } from './workflow-events.js';

/** Who an event belongs to. A child's events flow up its parent's stream with these set. */
export interface AgentRef {
  agentId: string;
  parentId: string | null;
  depth: number;
}

/**
 * How an agent's run ended. `completed` is the only success; `stalled`: stopped by the stall
 * watchdog after no model output and no tool activity for too long; `no_progress`: stopped after
 * the same tool calls with the same results four times in a row (loop/no-progress.ts).
 */
export type AgentStatus =
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'max_turns'
  | 'budget'
  | 'stalled'
  | 'no_progress';

/** The result subtypes of the CLI's JSON contract. */
export type ResultSubtype =
  | 'success'
  | 'error_max_turns'
  | 'error_budget'
  | 'error_during_execution';

export interface RunResult extends AgentRef {
  subtype: ResultSubtype;
  status: AgentStatus;
  isError: boolean;
  /**
   * The final assistant text (after a grace turn, what the agent reported then); for an agent
   * with an output schema, its structured output as JSON text.
   */
  result: string;
  /** The value an agent with an output schema finished with, checked against the schema. */
  structuredOutput?: unknown;
  /** What the agent's SubagentStop hooks said about handing its output on (flag or block). */
  handoff?: HandoffVerdict;
  /** Why the run did not succeed, for people; absent on success. */
  error?: string;
  /** A FatalToolError ended the run; it ends every ancestor too instead of becoming a result. */
  fatal?: boolean;
  /** Stopped by its token or cost budget with `pauseAtBudget`: nothing was lost, resume it. */
  paused?: boolean;
  agentType: string;
  description: string;
  numTurns: number;
  toolCalls: number;
  durationMs: number;
  /** This agent's own usage, children excluded. */
  usage: Usage;
  /** Null when the model's price is unknown. */
  costUsd: number | null;
  /** The whole conversation, system prompt first. */
  messages: Message[];
  /**
   * A remote child's own git worktree, made and finished on its worker: the reports its parent
   * emits as `worktree` events and the note after its output, as for a local child's.
   */
  worktree?: { reports: WorktreeReport[]; note: string };
}

export type AgentEvent = AgentRef &
  (
    | {
        type: 'run_start';
        agentType: string;
        description: string;
        model: string;
        tools: string[];
        cwd: string;
        /**
         * Where the agent sits in the tree, e.g. `main/Agent#2/explore`: its parent's path, the
         * spawning tool and its number among the parent's calls of that tool, and its type. The
         * same in every run of the same conversation, unlike the random `agentId`.
         */
        path: string;
        /** The parent's tool call that started this agent (an `Agent` or `delegate_to_*` call). */
        parentToolCallId?: string;
      }
    | { type: 'turn_start'; turn: number }
    | { type: 'message_start' }
    | { type: 'message_delta'; text: string }
    /** A message joined the conversation: the user's prompt, the assistant's reply, tool results. */
    | { type: 'message_end'; message: Message }
    | { type: 'tool_start'; toolCallId: string; toolName: string; input: unknown }
    /** Progress of a running tool (Bash output, say); not sent to the model. */
    | { type: 'tool_delta'; toolCallId: string; toolName: string; text: string }
    | {
        type: 'tool_end';
        toolCallId: string;
        toolName: string;
        output: string;
        isError: boolean;
        durationMs: number;
        /** Set when the permission policy refused the call: why, and what would allow it, for people. */
        denial?: string;
      }
    /**
     * The tool call waits for a person's permission answer (`waiting: true`), or got it: while it
     * waits the agent is `blocked` (warren tasks, ListAgents, the UI, a workflow's progress).
     */
    | { type: 'permission_wait'; toolCallId: string; toolName: string; waiting: boolean }
    /** A model call failed in a way worth retrying; text streamed since message_start is void. */
    | { type: 'retry'; attempt: number; delayMs: number; error: string }
    /** One model call finished: its tokens and cost, how long it took (retries included), why it ended. */
    | {
        type: 'usage';
        turn: number;
        usage: Usage;
        costUsd: number | null;
        durationMs: number;
        /** The provider's finish reason, unified: `stop`, `tool-calls`, `length`, … */
        finishReason: string;
        /** The provider's id of the response, when it gave one. */
        responseId?: string;
        /** The model that answered, as the provider named it (may differ from the one asked). */
        responseModel?: string;
      }
    | { type: 'turn_end'; turn: number; message: AssistantMessage }
    /**
     * Something went wrong that the run works around (an MCP server that did not start, one not
     * started because its file is untrusted); for people, never sent to the model.
     */
    | { type: 'warning'; message: string }
    | ({ type: 'result' } & RunResult)
    /** A workflow run's progress (src/workflows/), as an event of the agent that called Workflow. */
    | WorkflowEvent
    /** Background work started; the event belongs to the agent that started it (its owner). */
    | ({ type: 'task_started' } & TaskEventFields)
    /** How far a background task got; at most about once a second per task. */
    | ({ type: 'task_progress' } & TaskEventFields & { progress: TaskProgress })
    /** A background task ended; its owner gets the notification before its next model call. */
    | ({ type: 'task_notification' } & TaskEventFields & TaskEnding)
    /** The agent's own git worktree (`isolation: worktree`): made before it runs, then kept or removed. */
    | ({ type: 'worktree' } & WorktreeReport)
  );

/** What every task event says of its task. */
export interface TaskEventFields {
  taskId: string;
  kind: TaskKind;
  /** The background agent; null for a shell command. */
  taskAgentId: string | null;
  description: string;
  name: string | null;
  status: TaskStatus;
}

/** How a task ended, as a notification reports it. */
export interface TaskEnding {
  agentStatus: AgentStatus | null;
  /** The result as the owner reads it: cut to size, pointing to the full text. */
  result: string;
  error?: string;
  usage: Usage | null;
  costUsd: number | null;
  resultPath: string | null;
  durationMs: number;
}

/** What happened to an agent's own worktree; `kept` and `removed` come once it has ended. */
export interface WorktreeReport {
  action: 'created' | 'kept' | 'removed';
  path: string;
  branch: string;
  /** The agent left changes (always false on `created`). */
  changed: boolean;
  /** `git diff --stat` of the kept changes against the base; empty otherwise. */
  diffStat: string;
}

export type AgentEventType = AgentEvent['type'];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
