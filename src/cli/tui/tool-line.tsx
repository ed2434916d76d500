// One tool call of the main agent on one line: `✓ Read src/auth.ts (12 ms)` when it returned
// (an error in red, with its first line under it), `● Bash npm test · 3.2s` while it runs.
import { Box, Text } from 'ink';
import { formatDuration } from './format.js';
import { useTheme } from './theme-context.js';

export function FinishedToolLine(props: {
  summary: string;
  isError: boolean;
  durationMs: number;
  detail?: string;
}) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={props.isError ? theme.error : theme.success}>
          {props.isError ? '✗ ' : '✓ '}
        </Text>
        {props.summary}
        <Text dimColor>{` (${formatDuration(props.durationMs)})`}</Text>
      </Text>
      {props.detail ? (
        <Text color={theme.error} wrap="truncate-end">
          {`  ⎿ ${props.detail}`}
        </Text>
      ) : null}
    </Box>
  );
}

export function RunningToolLine(props: { summary: string; elapsedMs: number }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>● </Text>
      {props.summary}
      <Text dimColor>{` · ${formatDuration(props.elapsedMs)}`}</Text>
    </Text>
  );
}
