// The last line of the screen: model, session, tokens and cost of the whole tree ("unpriced"
// for a model without a price), the
// permission mode when it is not the default; or the hint that one more Ctrl+C exits.
import { Text } from 'ink';
import { budgetTokens, type Usage } from '../../core/usage.js';
import { formatCost, formatTokens } from './format.js';
import { useTheme } from './theme-context.js';

export interface StatusLineProps {
  model: string;
  sessionId: string;
  usage: Usage;
  costUsd: number | null;
  permissionMode: string;
  exitArmed: boolean;
}

export function StatusLine(props: StatusLineProps) {
  const theme = useTheme();
  if (props.exitArmed) {
    return <Text color={theme.warning}>Press Ctrl+C again to exit.</Text>;
  }
  const tokens = budgetTokens(props.usage);
  const parts = [
    props.model,
    `session …${props.sessionId.slice(-8)}`,
    `${formatTokens(tokens)} tok`,
    // Before the first reply nothing is known of the cost; after it, a model without a price
    // says so rather than claim $0.
    ...(tokens > 0 ? [formatCost(props.costUsd)] : []),
    ...(props.permissionMode === 'default' ? [] : [`${props.permissionMode} mode`]),
    '/help',
  ];
  return (
    <Text dimColor wrap="truncate-end">
      {parts.join(' · ')}
    </Text>
  );
}
