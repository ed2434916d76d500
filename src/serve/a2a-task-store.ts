// The tasks of `warren a2a serve`, kept in memory for the protocol and on disk (one private JSON
// file each) so a restarted server still answers GetTask and ListTasks. A task a restart cut
// short whose run had a session (its metadata names it) is `interrupted`: the server goes on with
// it; one stopped before its run began ends failed, saying so.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListTasksRequest, ListTasksResponse } from '@a2a-js/sdk';
import { type Task, TaskState } from '@a2a-js/sdk';
import { InMemoryTaskStore, ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { agentMessage } from '../a2a/a2a-parts.js';
import { writePrivateJson } from '../core/private-json-file.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** The task metadata key naming the warren session its run lives in. */
export const SESSION_KEY = 'warren/session';
const ENDED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export class FileTaskStore implements TaskStore {
  readonly #dir: string;
  // Every caller holds the one token: one owner scope.
  readonly #memory = new InMemoryTaskStore(() => 'warren');
  /** Tasks an earlier server was running, with the session each went on in. */
  readonly interrupted: Array<{ task: Task; sessionId: string }> = [];

  private constructor(dir: string) {
    this.#dir = dir;
  }

  /** The store of `dir`, with the tasks an earlier server left there. */
  static async open(dir: string): Promise<FileTaskStore> {
    const store = new FileTaskStore(dir);
    const context = new ServerCallContext();
    for (const task of readTasks(dir)) {
      const state = task.status?.state;
      const sessionId = task.metadata?.[SESSION_KEY];
      if (state !== undefined && !ENDED.has(state) && typeof sessionId === 'string') {
        store.interrupted.push({ task, sessionId });
        await store.#memory.save(task, context);
      } else if (state !== undefined && !ENDED.has(state)) {
        task.status = {
          state: TaskState.TASK_STATE_FAILED,
          timestamp: new Date().toISOString(),
          message: agentMessage(
            { taskId: task.id, contextId: task.contextId },
            'warren a2a serve stopped while this task ran; send the message again to run it anew.',
          ),
        };
        await store.save(task, context);
      } else {
        await store.#memory.save(task, context);
      }
    }
    return store;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.#memory.save(task, context);
    if (SAFE_ID.test(task.id)) writePrivateJson(join(this.#dir, `${task.id}.json`), task);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.#memory.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.#memory.list(params, context);
  }
}

function readTasks(dir: string): Task[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const tasks: Task[] = [];
  for (const name of names) {
    try {
      const task = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Task;
      if (typeof task.id === 'string' && `${task.id}.json` === name) tasks.push(task);
    } catch {
      // A file half-written by a crash is no task.
    }
  }
  return tasks;
}
