// After a crash, `--resume` continues the session's background work: what was delivered but not
// recorded is recorded, tasks of agents that are gone go to the new main agent, and every agent
// task that was running restarts from its sidechain transcript (in its own worktree if it had
// one; a remote one is attached to again, on its worker) with the messages it had not read. A
// finished call is never run again; one without a result is interrupted, or rerun if read-only.

import { readFileSync } from 'node:fs';
import type { ChildRestarts, ChildResume } from '../core/background-port.js';
import { messageOf } from '../core/error-message.js';
import type { AgentRef } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { signalGroup } from '../core/process-group.js';
import type { TaskOutcome, TaskRecord } from '../core/tasks.js';
import { INTERRUPTED_TOOL_OUTPUT, readTranscript } from '../session/read-transcript.js';
import type { BackgroundTasks } from './background-tasks.js';
import { agentMessageIds, notifiedTaskIds } from './task-notification.js';

/** The first message of a restarted agent. */
export const RESUMED_PROMPT =
  'The session stopped unexpectedly and has been resumed. Continue your task from where you left off. Tool calls whose result says "Interrupted" did not finish: check their effects before repeating them.';

export interface ResumeParams {
  tasks: BackgroundTasks;
  /** How children start again under the new main agent (agents/restarted-child.ts). */
  children: ChildRestarts;
  /** The resumed main conversation: notifications already in it count as delivered. */
  history: readonly Message[];
  /** Warnings for people (a damaged transcript line, a task that cannot restart). */
  warn?: (warning: string) => void;
}

/** What the resume did, for tests and the CLI's warnings. */
export interface ResumeReport {
  restarted: string[];
  ended: string[];
}

export async function resumeTasks(params: ResumeParams): Promise<ResumeReport> {
  const { tasks, history } = params;
  const { manager } = tasks;
  const warn = params.warn ?? (() => {});
  // Tasks of agents that are gone report to the new main agent.
  const mainRef = params.children.main;
  // Delivered in the conversation, killed before the store heard of it: not delivered twice.
  manager.markDelivered(idsInUserMessages(history, notifiedTaskIds));

  const interrupted = manager
    .list()
    .filter((record) => record.status === 'running' || record.status === 'pending');
  const restartable = interrupted.filter(
    (record) => record.kind === 'local_agent' && record.agentId,
  );
  // A remote child ran on, on its worker: the resumed run attaches to it again (its result, even
  // one that came while this process was down, is kept by the engine).
  const reattachable = interrupted.filter(
    (record) => record.kind === 'remote_agent' && record.agentId && record.spec,
  );
  const continuing = new Set(restartable.map((record) => record.agentId));
  // An owner that is neither restarted nor the new main agent is gone: its tasks report to main.
  const orphans = manager
    .list()
    .filter(
      (record) =>
        record.owner.agentId !== mainRef.agentId &&
        !continuing.has(record.owner.agentId) &&
        (record.notifiedAt === null || interrupted.includes(record)),
    );
  manager.reown(
    orphans.map((record) => record.taskId),
    mainRef,
  );

  const report: ResumeReport = { restarted: [], ended: [] };
  const ending = interrupted.filter(
    (candidate) => !restartable.includes(candidate) && !reattachable.includes(candidate),
  );
  for (const record of ending) {
    manager.endInterrupted(record.taskId, interruptedOutcome(record));
    report.ended.push(record.taskId);
  }
  const resume = resumeWith(warn);
  // Parents before their children, so an owner's inbox exists before its tasks report.
  for (const record of restartable.sort((a, b) => a.owner.depth - b.owner.depth)) {
    const fresh = manager.get(record.taskId)!;
    try {
      const { child, messages } = await params.children.restart(fresh, resume);
      // Its inbox is open: what was sent to it and is not in its transcript is read first.
      const read = idsInUserMessages(messages, agentMessageIds);
      manager.redeliverMessages(fresh.taskId, read);
      manager.restart(fresh.taskId, tasks.agents, child, fresh.owner);
      report.restarted.push(fresh.taskId);
    } catch (error) {
      const reason = messageOf(error);
      warn(`task ${fresh.taskId} could not be restarted: ${reason}`);
      manager.endInterrupted(fresh.taskId, {
        ...interruptedOutcome(fresh),
        error: `Could not be restarted after the session stopped: ${reason}`,
      });
      report.ended.push(fresh.taskId);
    }
  }
  for (const record of reattachable) reattach(params, manager.get(record.taskId)!, report);
  return report;
}

/**
 * Restarts one local agent task that ended without completing (a workflow item its run's
 * breaker stopped) from its sidechain transcript, under its task and agent ids, for `owner`: a
 * tool call whose result is on disk is not run again.
 */
export async function restartEndedAgent(
  params: Pick<ResumeParams, 'tasks' | 'children'>,
  record: TaskRecord,
  owner: AgentRef,
): Promise<TaskRecord> {
  const { manager } = params.tasks;
  manager.reown([record.taskId], owner);
  const fresh = manager.get(record.taskId)!;
  const { child } = await params.children.restart(
    fresh,
    resumeWith(() => {}),
  );
  return manager.restart(record.taskId, params.tasks.agents, child, owner);
}

/** How a restarted agent goes on: the resumed prompt, its sidechain read back. */
function resumeWith(warn: (warning: string) => void): ChildResume {
  return {
    prompt: RESUMED_PROMPT,
    warn,
    read: readTranscript,
    interrupted: INTERRUPTED_TOOL_OUTPUT,
  };
}

/** The ids `find` finds in the user messages of a conversation. */
function idsInUserMessages(messages: readonly Message[], find: (text: string) => string[]) {
  return messages.flatMap((message) => (message.role === 'user' ? find(message.content) : []));
}

/** A `remote_agent` task again, under its old id: the same child, attached (submit is idempotent). */
function reattach(params: ResumeParams, record: TaskRecord, report: ResumeReport): void {
  const { tasks } = params;
  const child = params.children.reattach(record);
  if (typeof child === 'string') {
    params.warn?.(`task ${record.taskId}: ${child}`);
    tasks.manager.endInterrupted(record.taskId, { ...interruptedOutcome(record), error: child });
    report.ended.push(record.taskId);
    return;
  }
  tasks.manager.restart(record.taskId, tasks.remoteAgents, child, record.owner);
  report.restarted.push(record.taskId);
}

/** What a task that cannot go on after the crash reports. */
function interruptedOutcome(record: TaskRecord): TaskOutcome {
  if (record.kind === 'local_bash') stopLeftover(record);
  const what =
    record.kind === 'local_bash'
      ? 'The session stopped while the command ran; it was not run again.'
      : record.kind === 'local_workflow'
        ? workflowInterrupted(record)
        : `The session stopped while it ran, and tasks of kind ${record.kind} cannot be restarted by this warren.`;
  return {
    status: 'failed',
    result: '',
    error: what,
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: record.resultPath,
  };
}

/**
 * A workflow run is not restarted here: its script runs again only when asked, against its
 * journal (its items that were running restart above as any background child). Says how.
 */
function workflowInterrupted(record: TaskRecord): string {
  const runId = (record.spec as { runId?: unknown } | null)?.runId;
  if (typeof runId !== 'string') return 'The session stopped while the workflow ran.';
  return `The session stopped while workflow run ${runId} ran; it does not go on by itself. Resume it with the Workflow tool's resumeFromRunId: "${runId}" (or \`warren workflow resume ${runId}\`): completed items return their recorded results, only unfinished and failed ones run.`;
}

/**
 * A command's process group outlives a kill -9 of warren. It is stopped only if its leader still
 * carries this task's marker (WARREN_TASK_ID), so a reused process id is never hit.
 */
function stopLeftover(record: TaskRecord): void {
  const { pid } = record;
  if (!pid) return;
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    if (environ.split('\0').includes(`WARREN_TASK_ID=${record.taskId}`))
      signalGroup(pid, 'SIGKILL');
  } catch {
    // Gone already, or no /proc to check by (not Linux): leave it.
  }
}
