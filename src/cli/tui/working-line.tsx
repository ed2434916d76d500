// The line above the prompt while a turn runs: how long it has been working, how to stop it,
// and the prompts waiting for it.
import { Text } from 'ink';
import { formatDuration } from './format.js';
import { useTheme } from './theme-context.js';

export function WorkingLine(props: { elapsedMs: number; queued: number }) {
  const theme = useTheme();
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>{'● '}</Text>
      {`Working ${formatDuration(props.elapsedMs)}`}
      <Text dimColor>{' · esc to interrupt'}</Text>
      {props.queued > 0 ? <Text dimColor>{` · ${props.queued} queued`}</Text> : null}
    </Text>
  );
}
