// `/tasks`: the session's background tasks as a numbered list; `/tasks open <n>` shows one task's
// result and its agent's transcript (a shell command's output); `/tasks stop <n>` stops it and
// everything it started, through the session's task manager.
import { shownTaskStatus, type TaskRecord } from '../../core/tasks.js';
import { formatDuration, plural } from './format.js';
import type { InteractiveSession } from './interactive-session.js';
import { endWord } from './task-line.js';
import { transcriptText } from './transcript-text.js';

export const TASKS_USAGE = '/tasks [open|stop <n>]';

export async function runTasksCommand(
  session: InteractiveSession,
  argument: string,
): Promise<void> {
  const [action = '', ref = ''] = argument.trim().split(/\s+/);
  const tasks = session.tasks();
  if (!action) {
    session.view.add({ kind: 'output', title: 'Background tasks', text: listing(session, tasks) });
    return;
  }
  if (action !== 'open' && action !== 'stop') {
    return say(session, 'error', `Unknown /tasks action "${action}". Use ${TASKS_USAGE}.`);
  }
  const task = find(tasks, ref);
  if (!task) {
    const which = tasks.length === 0 ? 'there are none yet' : `1 to ${tasks.length}, or a task id`;
    return say(session, 'error', `No task "${ref}" (${which}). /tasks lists them.`);
  }
  const name = `${whoOf(task)}  ${task.description}`;
  if (action === 'stop') {
    if (task.status !== 'pending' && task.status !== 'running') {
      return say(session, 'info', `${name} has ended already (${endWord(task.status)}).`);
    }
    say(session, 'info', `Stopping ${name}…`);
    await session.stopTask(task.taskId);
    return;
  }
  session.view.add({ kind: 'output', title: `Task · ${name}`, text: details(session, task) });
}

function listing(session: InteractiveSession, tasks: readonly TaskRecord[]): string {
  if (tasks.length === 0) return 'No background tasks in this session.';
  const now = Date.now();
  const rows = tasks.map((task, index) => [
    String(index + 1),
    `${symbolOf(task)} ${task.status}`,
    whoOf(task),
    task.description,
    progressOf(session, task, now),
  ]);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
  return [...lines, '', '/tasks open <n> shows one; /tasks stop <n> stops one.'].join('\n');
}

function details(session: InteractiveSession, task: TaskRecord): string {
  const head = [
    `${symbolOf(task)} ${shownTaskStatus(task)}${task.error ? `: ${task.error}` : ''}`,
    `${task.taskId} · ${progressOf(session, task, Date.now())}`,
  ];
  // A command's output, or how far a workflow got (its summary once it ended).
  if (task.kind === 'local_bash' || (task.kind === 'local_workflow' && !task.result)) {
    const output = session.taskOutput(task.taskId).trim();
    return [...head, '', output || '(no output yet)'].join('\n');
  }
  const result = task.status === 'pending' || task.status === 'running' ? '' : task.result;
  const path = task.resultPath ?? (task.agentId ? session.transcriptOf(task.agentId) : undefined);
  return [
    ...head,
    ...(result ? ['', 'Result:', result.trim()] : []),
    ...(path ? ['', transcriptText(path, session.setup.cwd)] : []),
  ].join('\n');
}

function find(tasks: readonly TaskRecord[], ref: string): TaskRecord | undefined {
  if (/^\d+$/.test(ref)) return tasks[Number(ref) - 1];
  return tasks.find((task) => task.taskId === ref);
}

function whoOf(task: TaskRecord): string {
  if (task.kind === 'local_workflow') return 'Workflow';
  return task.kind === 'local_bash' ? 'Bash' : (task.agentType ?? 'agent');
}

function symbolOf(task: TaskRecord): string {
  if (task.status === 'pending') return '○';
  if (task.status === 'running') return '●';
  return task.status === 'completed' ? '✓' : '✗';
}

/** Turns, tool calls and time: live from the agent's row while it is on screen, else as stored. */
function progressOf(session: InteractiveSession, task: TaskRecord, now: number): string {
  const started = task.startedAt ?? task.createdAt;
  const took = formatDuration((task.endedAt ?? now) - started);
  if (task.kind === 'local_bash') return took;
  const row = task.agentId === null ? undefined : session.view.agents.get(task.agentId);
  const { turns, toolCalls } = row ?? task.progress;
  return `${plural(turns, 'turn')} · ${plural(toolCalls, 'tool')} · ${took}`;
}

function say(session: InteractiveSession, tone: 'info' | 'error', text: string): void {
  session.view.add({ kind: 'notice', tone, text });
}
