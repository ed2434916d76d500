// What a workflow run reports as it goes (src/workflows/): `workflow_*` events in the run's event
// stream, stream-json lines, the progress view. Each names its run. Here in core so the AgentEvent
// union carries them: in the stream they belong to the agent that called Workflow.

/** How a workflow run ended (`running` is only ever in the store). */
export type WorkflowEndStatus = 'completed' | 'completed_with_errors' | 'paused' | 'failed';

export type ItemEventStatus =
  | 'running'
  | 'completed'
  | 'failed'
  | 'no_progress'
  | 'paused'
  | 'cached'
  | 'blocked';

export type WorkflowEvent =
  | { type: 'workflow_start'; runId: string; name: string; resumed: boolean }
  | { type: 'workflow_phase'; runId: string; title: string }
  | { type: 'workflow_log'; runId: string; message: string }
  | { type: 'workflow_warning'; runId: string; message: string }
  | {
      type: 'workflow_item';
      runId: string;
      key: string;
      occurrence: number;
      label: string;
      status: ItemEventStatus;
      /** The item's agent, once known (the event's own `agentId` is the workflow's caller). */
      itemAgentId?: string;
      error?: string;
      /** With `blocked`: what the item's agent waits for a person's answer on. */
      blockedOn?: string;
    }
  | {
      type: 'workflow_end';
      runId: string;
      status: WorkflowEndStatus;
      reason?: string;
      spentTokens: number;
    };
