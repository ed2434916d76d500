// One tool call of the main agent on one line: `✓ Read src/auth.ts (12 ms)` when it returned
// (an error in red, with its first line under it), `● Bash npm test · 3.2s` while it runs.
import { Box, Text } from 'ink';
import { formatDuration } from './format.js';
import { useTheme } from './theme-context.js';
import type { FinishedToolCall } from './view-items.js';

export function FinishedToolLine({ tool }: { tool: FinishedToolCall }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={tool.isError ? theme.error : theme.success}>{tool.isError ? '✗ ' : '✓ '}</Text>
        {tool.summary}
        <Text dimColor>{` (${formatDuration(tool.durationMs)})`}</Text>
      </Text>
      {tool.detail ? (
        <Text color={theme.error} wrap="truncate-end">
          {`  ⎿ ${tool.detail}`}
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
