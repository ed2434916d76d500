// A background task on one line. Running without an agent row (a shell command, an agent waiting
// for a slot): `● Bash  npm run watch · running · 12s`. Ended, as news in the conversation:
// `✓ explore  watch the logs — done in 4.2s · background · ctrl+o result`.
import { Text } from 'ink';
import { shownTaskStatus, type TaskStatus } from '../../core/tasks.js';
import { formatDuration } from './format.js';
import { useTheme } from './theme-context.js';
import type { TaskEndLine, TaskRow } from './view-items.js';

export function RunningTaskLine({ task, now }: { task: TaskRow; now: number }) {
  const theme = useTheme();
  const who =
    task.kind === 'local_bash' ? 'Bash' : task.kind === 'local_workflow' ? 'Workflow' : 'agent';
  const waiting = task.status === 'pending';
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>{waiting ? '○ ' : '● '}</Text>
      <Text bold color={theme.accent}>
        {who}
      </Text>
      {`  ${task.description}`}
      <Text dimColor>
        {waiting
          ? ' · waiting for a slot'
          : ` · ${shownTaskStatus(task)} · ${formatDuration(now - task.startedAt)}`}
      </Text>
    </Text>
  );
}

/** Written when it is the latest ended task: Ctrl+O then shows its result. */
export function EndedTaskLine({ task }: { task: TaskEndLine }) {
  const theme = useTheme();
  const ok = task.status === 'completed';
  return (
    <Text wrap="truncate-end">
      <Text color={ok ? theme.success : theme.error}>{ok ? '✓ ' : '✗ '}</Text>
      <Text bold>{task.agentType}</Text>
      {`  ${task.description} — `}
      <Text color={ok ? undefined : theme.error}>{endWord(task.status)}</Text>
      <Text dimColor>{` in ${formatDuration(task.durationMs)} · background`}</Text>
      {task.error ? <Text color={theme.error}>{`: ${task.error}`}</Text> : null}
      <Text dimColor>{' · ctrl+o result'}</Text>
    </Text>
  );
}

export function endWord(status: TaskStatus): string {
  switch (status) {
    case 'completed':
      return 'done';
    case 'cancelled':
      return 'stopped';
    default:
      return status;
  }
}
