// A permission question from a background agent while the person is free to go on talking to
// the main agent: who asks for what, and that Tab opens the question. It never takes the
// prompt's place by itself.
import { Box, Text } from 'ink';
import type { PendingPermission } from './permission-queue.js';
import { useTheme } from './theme-context.js';

/** Rows it takes. */
export const BACKGROUND_QUESTION_ROWS = 2;

export function BackgroundQuestionLine(props: { pending: PendingPermission; waiting: number }) {
  const theme = useTheme();
  const { agent, prompt } = props.pending;
  const who = `${agent.agentType}${agent.description ? `  ${agent.description}` : ''}`;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold color={theme.warning}>
          {'? '}
        </Text>
        <Text bold>{who}</Text>
        {' (background) asks to use '}
        {prompt.call}
      </Text>
      <Text dimColor wrap="truncate-end">
        {`  tab to answer${props.waiting > 0 ? ` · ${props.waiting} more waiting` : ''}`}
      </Text>
    </Box>
  );
}
