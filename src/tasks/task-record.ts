// A background task's record as the task manager keeps it: a fresh one from its meta, the copy
// it hands out, an executor's failure as an outcome, and what task events say of a record.

import { messageOf } from '../core/error-message.js';
import type { TaskEnding, TaskEventFields } from '../core/events.js';
import { FRESH_IDS, type RunIds, taskKey } from '../core/run-ids.js';
import {
  FINAL_TASK_STATUSES,
  type TaskMeta,
  type TaskOutcome,
  type TaskRecord,
} from '../core/tasks.js';
import { truncateForOwner } from './task-notification.js';

function newTaskId(): string {
  // node:crypto is taken with the first task, not by `import 'warren'` (~5 ms to load).
  return `task_${process.getBuiltinModule('node:crypto').randomUUID().slice(0, 8)}`;
}

/** The pending record of a task about to start, under a new id (in a replay, the recorded one). */
export function newTaskRecord(meta: TaskMeta, runIds: RunIds = FRESH_IDS): TaskRecord {
  const ownerId = meta.owner.agentId;
  return {
    taskId: runIds.taskId(taskKey({ ...meta, ownerId }), newTaskId),
    kind: meta.kind,
    agentId: meta.agentId ?? null,
    owner: meta.owner,
    agentType: meta.agentType ?? null,
    name: meta.name ?? null,
    description: meta.description,
    status: 'pending',
    agentStatus: null,
    createdAt: Date.now(),
    startedAt: null,
    endedAt: null,
    progress: { turns: 0, toolCalls: 0, tokens: 0, lastActivityAt: null, lastToolName: null },
    result: null,
    resultPath: null,
    error: null,
    usage: null,
    costUsd: null,
    notifiedAt: null,
    spec: meta.spec ?? null,
    attempt: 1,
    pid: null,
  };
}

/** A copy a caller may keep: the manager goes on changing its own. */
export function copyRecord(record: TaskRecord): TaskRecord {
  return { ...record, progress: { ...record.progress } };
}

/** Ended, and its owner has not had the notification yet. */
export function isUndelivered(record: TaskRecord): boolean {
  return FINAL_TASK_STATUSES.has(record.status) && record.notifiedAt === null;
}

/** The outcome of a task whose executor threw instead of reporting. */
export function executorFailure(error: unknown): TaskOutcome {
  return {
    status: 'failed',
    result: '',
    error: `The task's executor failed: ${messageOf(error)}`,
    agentStatus: null,
    usage: null,
    costUsd: null,
    resultPath: null,
  };
}

/** What every task event says of its task. */
export function taskEventFields(record: TaskRecord): TaskEventFields {
  return {
    taskId: record.taskId,
    kind: record.kind,
    taskAgentId: record.agentId,
    description: record.description,
    name: record.name,
    status: record.status,
  };
}

/** How an ended task ended, its result cut to `resultMaxChars` for the owner. */
export function taskEnding(record: TaskRecord, resultMaxChars: number): TaskEnding {
  return {
    agentStatus: record.agentStatus,
    result: truncateForOwner(record.result ?? '', resultMaxChars, record.resultPath),
    ...(record.error ? { error: record.error } : {}),
    usage: record.usage,
    costUsd: record.costUsd,
    resultPath: record.resultPath,
    durationMs: (record.endedAt ?? Date.now()) - (record.startedAt ?? record.createdAt),
  };
}
