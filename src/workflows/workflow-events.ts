// What a workflow run reports as it goes: stream-json `workflow_*` lines, the progress view,
// spans per workflow and per item. Each names its run.
import type { RunStatus } from './workflow-store.js';

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
      agentId?: string;
      error?: string;
      /** With `blocked`: what the item's agent waits for a person's answer on. */
      blockedOn?: string;
    }
  | {
      type: 'workflow_end';
      runId: string;
      status: Exclude<RunStatus, 'running'>;
      reason?: string;
      spentTokens: number;
    };
