// A remote A2A task's end as the RunResult its parent reads, like any child's: its text (and a
// data part as its structured value), its state as a status, and the usage and cost the remote
// side reported (warren's own servers do), so they roll up into the tree's `agents[]`.
import { type Artifact, TaskState } from '@a2a-js/sdk';
import type { AgentStatus, ResultSubtype, RunResult } from '../core/events.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import { emptyUsage } from '../core/usage.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { partsData, partsText } from './a2a-parts.js';
import { readRunReport } from './remote-run-report.js';

/** What the client saw of a task. */
export interface TaskView {
  state: TaskState;
  artifacts: Artifact[];
  /** The latest status message's text. */
  lastText: string;
  /** The latest status update's metadata. */
  metadata: Record<string, unknown> | undefined;
  /** The stream broke or could not start. */
  failure?: string;
}

const STATUS: Partial<Record<TaskState, AgentStatus>> = {
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_CANCELED]: 'cancelled',
};

export function a2aResult(
  spec: RemoteChildSpec,
  definition: AgentDefinition,
  view: TaskView,
  durationMs: number,
): RunResult {
  const status: AgentStatus = view.failure ? 'failed' : (STATUS[view.state] ?? 'failed');
  const parts = view.artifacts.flatMap((artifact) => artifact.parts);
  const text = partsText(parts) || view.lastText;
  const data = partsData(parts);
  const report = readRunReport(view.metadata);
  const error =
    status === 'completed'
      ? undefined
      : (view.failure ??
        `the remote task ended ${TaskState[view.state] ?? view.state}: ${view.lastText}`);
  const subtype: ResultSubtype = status === 'completed' ? 'success' : 'error_during_execution';
  return {
    agentId: spec.agentId,
    parentId: spec.parentId,
    depth: spec.depth,
    subtype,
    status,
    isError: status !== 'completed',
    result: text,
    ...(data !== undefined ? { structuredOutput: data } : {}),
    ...(error === undefined ? {} : { error }),
    agentType: definition.name,
    description: spec.description,
    numTurns: report?.numTurns ?? 0,
    toolCalls: report?.toolCalls ?? 0,
    durationMs,
    usage: report?.usage ?? emptyUsage(),
    costUsd: report?.costUsd ?? null,
    messages: [
      { role: 'user', content: spec.prompt },
      ...(text ? [{ role: 'assistant' as const, content: [{ type: 'text' as const, text }] }] : []),
    ],
  };
}
