// `warren tasks [--session <id>] [--session-dir <dir>] [--json]`: the background tasks of a
// session, read from its task store: kind, status, description, progress, where the result is.
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { shownTaskStatus, type TaskRecord } from '../../core/tasks.js';
import {
  defaultSessionDir,
  taskStorePath,
  validateSessionId,
} from '../../session/session-paths.js';
import { TaskStore } from '../../tasks/task-store.js';
import type { TasksArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { usageJson } from '../print/result-json.js';
import { textTable } from '../text-table.js';

export async function runTasksCommand(args: TasksArgs, io: CliIo): Promise<number> {
  const sessionDir = resolve(args.sessionDir ?? defaultSessionDir());
  const sessionId = args.sessionId
    ? validateSessionId(args.sessionId, { where: '--session' })
    : newestSessionWithTasks(sessionDir);
  const path = taskStorePath(sessionDir, sessionId);
  if (!existsSync(path)) {
    throw new ConfigError(
      `--session ${sessionId}`,
      `has no background tasks (no ${path})`,
      'run warren tasks without --session for the newest session that has some',
    );
  }
  const store = TaskStore.read(path);
  let tasks: TaskRecord[];
  try {
    tasks = store.list();
  } finally {
    store.close();
  }
  io.stdout(
    args.json
      ? `${JSON.stringify({ session_id: sessionId, tasks: tasks.map(taskJson) }, null, 2)}\n`
      : formatTasks(sessionId, tasks),
  );
  return 0;
}

/** The newest session (ids sort by time) that has a task store. */
function newestSessionWithTasks(sessionDir: string): string {
  const found = existsSync(sessionDir)
    ? readdirSync(sessionDir)
        .filter((name) => existsSync(taskStorePath(sessionDir, name)))
        .sort()
    : [];
  const newest = found.at(-1);
  if (!newest) {
    throw new ConfigError(
      '--session-dir',
      `no session in ${sessionDir} has background tasks`,
      'pass --session-dir if the sessions were written elsewhere',
    );
  }
  return newest;
}

function taskJson(task: TaskRecord) {
  return {
    task_id: task.taskId,
    kind: task.kind,
    status: shownTaskStatus(task),
    agent_status: task.agentStatus,
    description: task.description,
    agent_id: task.agentId,
    agent_type: task.agentType,
    name: task.name,
    owner_id: task.owner.agentId,
    created_at: new Date(task.createdAt).toISOString(),
    started_at: task.startedAt === null ? null : new Date(task.startedAt).toISOString(),
    ended_at: task.endedAt === null ? null : new Date(task.endedAt).toISOString(),
    progress: {
      turns: task.progress.turns,
      tool_calls: task.progress.toolCalls,
      tokens: task.progress.tokens,
      last_activity_at:
        task.progress.lastActivityAt === null
          ? null
          : new Date(task.progress.lastActivityAt).toISOString(),
      last_tool: task.progress.lastToolName,
      blocked_on: task.progress.blockedOn ?? null,
    },
    result: task.result,
    result_path: task.resultPath,
    error: task.error,
    usage: task.usage ? usageJson(task.usage) : null,
    cost_usd: task.costUsd,
    notified_at: task.notifiedAt === null ? null : new Date(task.notifiedAt).toISOString(),
    attempt: task.attempt,
  };
}

/** `failed (no_progress)` when the agent's ending says more; `blocked (permission to use Bash)`. */
function statusCell(task: TaskRecord): string {
  const shown = shownTaskStatus(task);
  if (shown === 'blocked') return `blocked (${task.progress.blockedOn})`;
  return task.agentStatus && task.agentStatus !== task.status
    ? `${task.status} (${task.agentStatus})`
    : task.status;
}

/** A workflow counts its ended items (in `toolCalls`) and its items' tokens; a command nothing. */
function progressCell(task: TaskRecord): string {
  const { turns, toolCalls, tokens } = task.progress;
  if (task.kind === 'local_bash') return '-';
  if (task.kind === 'local_workflow') return `${toolCalls} items ended, ${tokens} tokens`;
  return `${turns} turns, ${toolCalls} tools, ${tokens} tokens`;
}

function formatTasks(sessionId: string, tasks: readonly TaskRecord[]): string {
  const rows = tasks.map((task) => [
    task.taskId,
    task.kind,
    statusCell(task),
    progressCell(task),
    clip(task.description, 40),
    task.resultPath ?? '-',
  ]);
  const header = ['TASK', 'KIND', 'STATUS', 'PROGRESS', 'DESCRIPTION', 'RESULT'];
  const pending = tasks.filter((task) => task.notifiedAt === null && task.endedAt !== null).length;
  const summary = `${tasks.length} task${tasks.length === 1 ? '' : 's'} in session ${sessionId}${pending ? `, ${pending} not yet delivered to the agent that started it` : ''}`;
  return `${textTable([header, ...rows]).join('\n')}\n\n${summary}\n`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
