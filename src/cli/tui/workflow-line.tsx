// A workflow run on one line: its name, current phase (the script's latest `phase()`), its
// items done / running / blocked / failed, what they spent and how long it has run. Running, live in the background panel
// (`● Workflow  review · reviewing · 3 done, 2 running, 1 failed · 4.1k tok · $0.0123 · 12s`);
// ended, written once in the conversation with how it ended.
import { Text } from 'ink';
import { formatCost, formatDuration, formatTokens } from './format.js';
import { useTheme } from './theme-context.js';
import type { WorkflowRow } from './view-items.js';

export function RunningWorkflowLine({ workflow, now }: { workflow: WorkflowRow; now: number }) {
  const theme = useTheme();
  const phase = workflow.phase === undefined ? '' : ` · ${workflow.phase}`;
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>● </Text>
      <Text bold color={theme.accent}>
        Workflow
      </Text>
      {`  ${workflow.name}${phase} · `}
      {countsText(workflow)}
      <Text
        dimColor
      >{` · ${spentText(workflow)} · ${formatDuration(now - workflow.startedAt)}`}</Text>
    </Text>
  );
}

/** Written once when the run's task ended; Ctrl+O shows its summary. */
export function EndedWorkflowLine({
  workflow,
  durationMs,
}: {
  workflow: WorkflowRow;
  durationMs: number;
}) {
  const theme = useTheme();
  const ok = workflow.status === 'completed';
  const status = workflow.status === 'running' ? 'stopped' : workflow.status;
  return (
    <Text wrap="truncate-end">
      <Text color={ok ? theme.success : theme.error}>{ok ? '✓ ' : '✗ '}</Text>
      <Text bold>Workflow</Text>
      {`  ${workflow.name} — `}
      <Text color={ok ? undefined : theme.error}>{status}</Text>
      {workflow.reason ? <Text color={theme.error}>{`: ${workflow.reason}`}</Text> : null}
      {` · ${countsText(workflow)}`}
      <Text dimColor>
        {` · ${spentText(workflow)} · ${formatDuration(durationMs)} · ctrl+o result`}
      </Text>
    </Text>
  );
}

/** `3 done, 2 running, 1 blocked, 1 failed`: what is zero is left out, but for done. */
export function countsText(workflow: WorkflowRow): string {
  const { done, running, blocked, failed, paused } = workflow.counts;
  return [
    `${done} done`,
    running > 0 ? `${running} running` : '',
    blocked > 0 ? `${blocked} blocked` : '',
    failed > 0 ? `${failed} failed` : '',
    paused > 0 ? `${paused} paused` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function spentText(workflow: WorkflowRow): string {
  return `${formatTokens(workflow.tokens)} tok · ${formatCost(workflow.costUsd)}`;
}
