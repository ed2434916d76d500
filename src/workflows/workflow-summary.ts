// What a workflow run answers its caller (the Workflow tool, `warren workflow run`): one JSON
// object with the run's status and why, counts per item status, the first failures and the result.
import { randomUUID } from 'node:crypto';
import type { WorkflowRunResult } from './workflow-engine.js';

export function newRunId(): string {
  return `wf_${randomUUID().slice(0, 8)}`;
}

/** Counts of this pass's items by status. */
export function itemCounts(result: WorkflowRunResult): Record<string, number> {
  const counts: Record<string, number> = { completed: 0, failed: 0, paused: 0 };
  for (const item of result.items) counts[item.status] = (counts[item.status] ?? 0) + 1;
  return counts;
}

export function workflowSummary(result: WorkflowRunResult, outputCsvPath?: string): string {
  const failures = result.items.filter(
    (item) => item.status === 'failed' || item.status === 'no_progress',
  );
  return JSON.stringify({
    run_id: result.runId,
    workflow_name: result.name,
    status: result.status,
    ...(result.reason && { reason: result.reason }),
    items: {
      total: result.items.length,
      ...itemCounts(result),
      from_journal: result.cached,
      launched: result.launched,
    },
    ...(failures.length > 0 && {
      failed_items: failures
        .slice(0, 5)
        .map(({ label, status, error }) => ({ label, status, error })),
    }),
    spent_tokens: result.spentTokens,
    ...(result.budgetTokens !== null && { budget_tokens: result.budgetTokens }),
    ...(outputCsvPath && { output_csv_path: outputCsvPath }),
    ...(result.status === 'paused' && {
      resume: `Resume with Workflow { resumeFromRunId: "${result.runId}" } (or warren workflow resume ${result.runId}) once the cause is fixed.`,
    }),
    result: result.result ?? null,
  });
}
