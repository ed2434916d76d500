// The live part of the screen as lines: each running tool call of the main agent with the
// sub-agent it started under it, their children by depth, and apart the background tasks; never
// more rows than it is given, so the screen keeps its height (a taller frame redraws it whole).
import type { SessionView } from './session-view.js';
import type { AgentRow, RunningTool, TaskRow, WorkflowRow } from './view-items.js';

export type TreeLine =
  | { kind: 'tool'; key: string; indent: number; tool: RunningTool }
  | { kind: 'agent'; key: string; indent: number; row: AgentRow }
  /** A background task with no agent row: a shell command, or an agent waiting for a slot. */
  | { kind: 'task'; key: string; indent: number; task: TaskRow }
  /** A workflow run, its items folded into one line of counts. */
  | { kind: 'workflow'; key: string; indent: number; workflow: WorkflowRow }
  | { kind: 'more'; key: string; indent: number; running: number; finished: number };

/**
 * The lines of what runs in the foreground, at most `maxRows`. Over the limit, finished
 * sub-agents go first (their parents still show their counts), then the last running rows
 * become one "… and N more" line.
 */
export function foregroundLines(view: SessionView, maxRows: number): TreeLine[] {
  const childrenOf = childrenByParent(view.agents.values(), (row) => !row.background);
  const byCall = new Map<string, AgentRow[]>();
  for (const row of view.agents.values()) {
    if (row.background || row.depth !== 1 || row.parentToolCallId === undefined) continue;
    byCall.set(row.parentToolCallId, [...(byCall.get(row.parentToolCallId) ?? []), row]);
  }
  const lines: TreeLine[] = [];
  for (const tool of view.tools.values()) {
    const started = byCall.get(tool.toolCallId) ?? [];
    if (started.length === 0) {
      lines.push({ kind: 'tool', key: `tool:${tool.toolCallId}`, indent: 0, tool });
      continue;
    }
    for (const row of started) addAgent(lines, row, 0, childrenOf);
  }
  return fitted(lines, maxRows);
}

/**
 * The lines of the background: each task (its agent's row and those below it, or the task
 * itself when it has no agent on screen), then agents working in the background outside any
 * task; at most `maxRows`.
 */
export function backgroundLines(view: SessionView, maxRows: number): TreeLine[] {
  // A workflow's items show as its counts, not as rows of their own.
  const background = [...view.agents.values()].filter(
    (row) => row.background && view.workflows.runOf(row.agentId) === undefined,
  );
  const childrenOf = childrenByParent(background, () => true);
  const ids = new Set(background.map((row) => row.agentId));
  const lines: TreeLine[] = [];
  const placed = new Set<string>();
  for (const task of view.tasks.values()) {
    const workflow = view.workflows.ofTask(task.taskId);
    if (workflow) {
      lines.push({ kind: 'workflow', key: `workflow:${workflow.runId}`, indent: 0, workflow });
      continue;
    }
    if (view.workflows.runOf(task.agentId) !== undefined) continue;
    const row = task.agentId === null ? undefined : view.agents.get(task.agentId);
    if (!row) {
      lines.push({ kind: 'task', key: `task:${task.taskId}`, indent: 0, task });
      continue;
    }
    placed.add(row.agentId);
    addAgent(lines, row, 0, childrenOf);
  }
  for (const row of background) {
    if (placed.has(row.agentId)) continue;
    if (row.parentId === null || !ids.has(row.parentId)) addAgent(lines, row, 0, childrenOf);
  }
  return fitted(lines, maxRows);
}

function addAgent(
  lines: TreeLine[],
  row: AgentRow,
  indent: number,
  childrenOf: ReadonlyMap<string, AgentRow[]>,
): void {
  lines.push({ kind: 'agent', key: `agent:${row.agentId}`, indent, row });
  for (const child of childrenOf.get(row.agentId) ?? []) {
    addAgent(lines, child, indent + 1, childrenOf);
  }
}

function childrenByParent(
  rows: Iterable<AgentRow>,
  keep: (row: AgentRow) => boolean,
): Map<string, AgentRow[]> {
  const children = new Map<string, AgentRow[]>();
  for (const row of rows) {
    if (row.parentId === null || !keep(row)) continue;
    const siblings = children.get(row.parentId);
    if (siblings) siblings.push(row);
    else children.set(row.parentId, [row]);
  }
  return children;
}

function fitted(lines: TreeLine[], maxRows: number): TreeLine[] {
  if (lines.length <= maxRows) return lines;
  const isFinished = (line: TreeLine) => line.kind === 'agent' && line.row.status !== 'running';
  const finished = lines.filter(isFinished).length;
  const running = lines.filter((line) => !isFinished(line));
  if (maxRows <= 0) return [];
  if (running.length <= maxRows - 1) {
    return [...running, { kind: 'more', key: 'more', indent: 0, running: 0, finished }];
  }
  const shown = running.slice(0, maxRows - 1);
  const hiddenRunning = running.length - shown.length;
  return [...shown, { kind: 'more', key: 'more', indent: 0, running: hiddenRunning, finished }];
}
