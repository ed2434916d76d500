// One sub-agent on one line. Running: what it is and what it is doing now, counted live
// (`● explore  review the loop · Grep answer · 2 turns · 3 tools · 1.2k tok · 3.2s`).
// Finished: one summary (`✓ explore  review the loop — done (2 turns, 8 tools, 5.1s)`).
import { Text } from 'ink';
import type { AgentStatus } from '../../core/events.js';
import { formatDuration, formatTokens, plural } from './format.js';
import { useTheme } from './theme-context.js';
import type { AgentSummaryLine } from './view-items.js';

export interface RunningAgentLineProps {
  agentType: string;
  description: string;
  turns: number;
  toolCalls: number;
  tokens: number;
  elapsedMs: number;
  activity: string;
  indent: number;
  /** Columns the line may take: the description and the activity are cut to fit. */
  width: number;
}

export function RunningAgentLine(props: RunningAgentLineProps) {
  const theme = useTheme();
  const counts = countsOf(props, props.elapsedMs).join(' · ');
  const fixed = `${indentOf(props.indent)}● ${props.agentType}   ·  · ${counts}`;
  const [description, activity] = shareWidth(
    props.description,
    props.activity,
    props.width - length(fixed),
  );
  return (
    <Text wrap="truncate-end">
      {indentOf(props.indent)}
      <Text color={theme.accent}>● </Text>
      <Text bold color={theme.accent}>
        {props.agentType}
      </Text>
      {`  ${description} · `}
      {activity}
      <Text dimColor>{` · ${counts}`}</Text>
    </Text>
  );
}

/**
 * Cuts the description and the activity to fit `room` columns together: each gets half, or
 * what the other leaves when that is more.
 */
function shareWidth(description: string, activity: string, room: number): [string, string] {
  if (length(description) + length(activity) <= room) return [description, activity];
  const descriptionRoom = Math.min(
    length(description),
    Math.max(Math.floor(room / 2), room - length(activity)),
  );
  return [clip(description, descriptionRoom), clip(activity, room - descriptionRoom)];
}

function length(text: string): number {
  return [...text].length;
}

function clip(text: string, room: number): string {
  if (length(text) <= room) return text;
  if (room <= 1) return '…'.slice(0, Math.max(0, room));
  return `${[...text].slice(0, room - 1).join('')}…`;
}

export function FinishedAgentLine({
  agent,
  indent,
  background = false,
}: {
  agent: AgentSummaryLine;
  indent: number;
  /** It worked in the background: its end is announced as news. */
  background?: boolean;
}) {
  const theme = useTheme();
  const ok = agent.status === 'completed';
  const counts = countsOf(agent, agent.durationMs).join(', ');
  return (
    <Text wrap="truncate-end">
      {indentOf(indent)}
      <Text color={ok ? theme.success : theme.error}>{ok ? '✓ ' : '✗ '}</Text>
      <Text bold>{agent.agentType}</Text>
      {`  ${agent.description} — `}
      <Text color={ok ? undefined : theme.error}>{statusWord(agent.status)}</Text>
      <Text dimColor>{` (${counts})${background ? ' · in the background' : ''}`}</Text>
      {agent.error ? <Text color={theme.error}>{`: ${agent.error}`}</Text> : null}
    </Text>
  );
}

function statusWord(status: AgentStatus): string {
  switch (status) {
    case 'completed':
      return 'done';
    case 'max_turns':
      return 'stopped at its turn limit';
    case 'budget':
      return 'stopped by the budget';
    case 'no_progress':
      return 'stopped: no progress';
    default:
      return status;
  }
}

export function indentOf(depth: number): string {
  return depth === 0 ? '' : `${'  '.repeat(depth - 1)}  └ `;
}

/** What an agent did in `ms`, as its line counts it: turns, tool calls, tokens, time. */
function countsOf(
  agent: { turns: number; toolCalls: number; tokens: number },
  ms: number,
): string[] {
  return [
    plural(agent.turns, 'turn'),
    plural(agent.toolCalls, 'tool'),
    `${formatTokens(agent.tokens)} tok`,
    formatDuration(ms),
  ];
}
