// The text of `warren usage`: one row per agent, indented under its parent, then a subtotal row
// for every agent with children (itself and all below it), and the session total.
import { cacheHitRatio, type Usage } from '../../core/usage.js';
import type { AgentSummary } from '../../telemetry/agent-tree.js';
import { childrenByParent } from '../../telemetry/session-timeline.js';

/** What the table shows: a finished session read back, or the live one of the terminal UI. */
export interface UsageTree {
  sessionId: string;
  /** Parents before their children. */
  agents: readonly AgentSummary[];
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

interface Row {
  label: string;
  turns: string;
  tools: string;
  usage: Usage;
  cost: number | null;
  durationMs: number | undefined;
}

const HEADERS = [
  'AGENT',
  'TURNS',
  'TOOLS',
  'INPUT',
  'CACHE READ',
  'CACHE WRITE',
  'CACHED',
  'OUTPUT',
  'COST',
  'TIME',
];
const MAX_LABEL = 60;

export function formatUsageTable(timeline: UsageTree): string {
  const children = childrenByParent(timeline.agents);
  const rows: Row[] = [];
  const visit = (agent: AgentSummary, depth: number) => {
    const indent = '  '.repeat(depth);
    const name = agent.description ? `${agent.agentType}: ${agent.description}` : agent.agentType;
    const status = agent.status === 'completed' ? '' : ` [${agent.status}]`;
    rows.push({
      label: clip(`${indent}${name}${status}`),
      turns: String(agent.numTurns),
      tools: String(agent.toolCalls),
      usage: agent.usage,
      cost: agent.costUsd,
      durationMs: agent.durationMs,
    });
    const below = children.get(agent.agentId) ?? [];
    for (const child of below) visit(child, depth + 1);
    // A single root's subtotal would repeat the total line.
    if (below.length > 0 && (depth > 0 || roots.length > 1)) {
      rows.push({
        label: clip(`${indent}└ subtotal ${agent.agentType}`),
        turns: '',
        tools: '',
        usage: agent.subtreeUsage,
        cost: agent.subtreeCostUsd,
        durationMs: undefined,
      });
    }
  };
  const roots = children.get(null) ?? [];
  for (const root of roots) visit(root, 0);
  rows.push({
    label: 'total',
    turns: '',
    tools: '',
    usage: timeline.usage,
    cost: timeline.costUsd,
    durationMs: timeline.durationMs,
  });
  const cells = rows.map((row) => [
    row.label,
    row.turns,
    row.tools,
    count(row.usage.inputTokens),
    count(row.usage.cacheReadInputTokens),
    count(row.usage.cacheCreationInputTokens),
    share(cacheHitRatio(row.usage)),
    count(row.usage.outputTokens),
    row.cost === null ? '–' : `$${row.cost.toFixed(4)}`,
    row.durationMs === undefined ? '' : seconds(row.durationMs),
  ]);
  const table = [HEADERS, ...cells];
  const widths = HEADERS.map((_, column) => Math.max(...table.map((line) => width(line[column]!))));
  const lines = table.map((line) =>
    line
      .map((cell, column) =>
        column === 0 ? pad(cell, widths[column]!, 'end') : pad(cell, widths[column]!, 'start'),
      )
      .join('  ')
      .trimEnd(),
  );
  const agents = timeline.agents.length;
  const title = `Session ${timeline.sessionId}: ${agents} agent${agents === 1 ? '' : 's'}, cost ${
    timeline.costUsd === null
      ? 'unknown (a model without a price)'
      : `$${timeline.costUsd.toFixed(4)}`
  }`;
  return `${title}\n\n${lines.join('\n')}\n`;
}

function count(tokens: number): string {
  return tokens.toLocaleString('en-US');
}

/** The share of input read from the prompt cache (`cache_hit_ratio`), as a whole percent. */
function share(ratio: number | null): string {
  return ratio === null ? '–' : `${Math.round(100 * ratio)}%`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function clip(text: string): string {
  return width(text) > MAX_LABEL ? `${[...text].slice(0, MAX_LABEL - 1).join('')}…` : text;
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number, side: 'start' | 'end'): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return side === 'start' ? fill + text : text + fill;
}
