// One run of a session as its host asks for it (print mode, the terminal UI, `warren acp`, a
// served call, `warren workflow`): what differs from run to run of one setup.

import type { AgentEvent } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import type { TranscriptWriter } from '../../session/transcript-writer.js';
import type { TaskManager } from '../../tasks/task-manager.js';
import type { WorkflowEvent } from '../../workflows/workflow-events.js';

export interface QueryRun {
  /** The session the run belongs to (the UI starts new ones on `/clear`). */
  sessionId: string;
  agentId: string;
  signal: AbortSignal;
  messages: readonly Message[];
  transcript: TranscriptWriter;
  /** The session's background tasks (`openTasks`). */
  tasks: TaskManager;
  /** Every event of the tree the moment it happens, background agents' included. */
  onEvent: (event: AgentEvent) => void;
  /** Restart the tasks the session was running when its last process stopped (`--resume`). */
  resumeTasks?: { warn: (warning: string) => void };
  /**
   * Whether the main agent waits for its background tasks before its run ends (default true);
   * false when the host keeps them running across runs (the terminal UI).
   */
  waitForBackground?: boolean;
  /** Every `workflow_*` event of the Workflow tool (stream-json prints them). */
  onWorkflowEvent?: (event: WorkflowEvent) => void;
  /** The definition this run's main agent runs as, in place of `--agent`'s (a served call's). */
  mainDefinition?: AgentDefinition;
  /** A caller's own limits (a served call's): the run keeps the smaller of each. */
  limits?: { timeBudgetMs?: number; tokenBudget?: number };
}
