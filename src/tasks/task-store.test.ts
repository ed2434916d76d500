// The task store on disk: made with the first task (not before), every field read back as
// written, messages to running agents until they are read, and files it cannot read refused.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import type { TaskRecord } from '../core/tasks.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { newTaskRecord } from './task-record.js';
import { TaskStore } from './task-store.js';

const record = (taskId: string): TaskRecord => ({
  ...newTaskRecord({
    kind: 'local_agent',
    agentId: 'agent_1',
    owner: { agentId: 'main', parentId: null, depth: 0 },
    agentType: 'explore',
    name: 'finder',
    description: 'find it',
    spec: { agentType: 'explore', prompt: 'find it' },
  }),
  taskId,
  createdAt: 1000,
});

describe('TaskStore', () => {
  it('makes its file only when the first task is written', async () => {
    const path = join(await makeTempDir(), 'session', 'tasks.db');
    const store = TaskStore.open(path);
    expect(store.list()).toEqual([]);
    expect(existsSync(path)).toBe(false);
    store.insert(record('task_1'));
    expect(existsSync(path)).toBe(true);
    store.close();
  });

  it('reads back every state change as written, from a second connection', async () => {
    const path = join(await makeTempDir(), 'tasks.db');
    const store = TaskStore.open(path);
    store.insert(record('task_1'));
    store.markRunning('task_1', 2000, 4242);
    store.saveProgress('task_1', {
      turns: 2,
      toolCalls: 5,
      tokens: 900,
      lastActivityAt: 2500,
      lastToolName: 'Grep',
    });
    store.finish(
      'task_1',
      {
        status: 'completed',
        result: 'found it',
        agentStatus: 'max_turns',
        error: 'Stopped early.',
        usage: {
          inputTokens: 800,
          outputTokens: 100,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
        },
        costUsd: null,
        resultPath: '/t/agent_1.jsonl',
      },
      3000,
    );
    store.markNotified(['task_1'], 3100);
    const reader = TaskStore.read(path);
    expect(reader.get('task_1')).toEqual({
      ...record('task_1'),
      status: 'completed',
      agentStatus: 'max_turns',
      startedAt: 2000,
      endedAt: 3000,
      pid: 4242,
      progress: { turns: 2, toolCalls: 5, tokens: 900, lastActivityAt: 2500, lastToolName: 'Grep' },
      result: 'found it',
      error: 'Stopped early.',
      resultPath: '/t/agent_1.jsonl',
      usage: {
        inputTokens: 800,
        outputTokens: 100,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
      },
      notifiedAt: 3100,
    });
    reader.close();
    store.close();
  });

  it('records messages, lists the unread ones of a task oldest first, and marks them read', async () => {
    const path = join(await makeTempDir(), 'tasks.db');
    const store = TaskStore.open(path);
    store.markRead([], 1000);
    expect(store.unreadMessages('task_1')).toEqual([]);
    expect(existsSync(path)).toBe(false);
    const sent = (messageId: string, taskId: string | null, sentAt: number) => ({
      messageId,
      agentId: 'agent_1',
      taskId,
      text: `<agent-message from="main" path="main" id="${messageId}">\ngo on\n</agent-message>`,
      sentAt,
    });
    store.insertMessage(sent('msg_2', 'task_1', 2000));
    store.insertMessage(sent('msg_1', 'task_1', 2000));
    store.insertMessage(sent('msg_3', 'task_1', 2100));
    store.insertMessage(sent('msg_4', 'task_2', 2200));
    store.insertMessage(sent('msg_5', null, 2300));
    store.markRead(['msg_1'], 2500);
    const reader = TaskStore.open(path);
    expect(reader.unreadMessages('task_1')).toEqual([
      { ...sent('msg_2', 'task_1', 2000), readAt: null },
      { ...sent('msg_3', 'task_1', 2100), readAt: null },
    ]);
    store.markRead(['msg_2', 'msg_3', 'msg_4'], 2600);
    expect(reader.unreadMessages('task_1')).toEqual([]);
    expect(reader.unreadMessages('task_2')).toEqual([]);
    reader.close();
    store.close();
  });

  it('refuses a file that is not a task store, naming it', async () => {
    const path = join(await makeTempDir(), 'tasks.db');
    writeFileSync(path, 'not a database at all, just text that is long enough to look like one');
    expect(() => TaskStore.open(path)).toThrow(ConfigError);
    expect(() => TaskStore.open(path)).toThrow(new RegExp(`^${path}: `));
  });

  it('keeps what a running agent waits on a person for, and adds the column to an older file', async () => {
    const path = join(await makeTempDir(), 'tasks.db');
    // A store as the first version wrote it: no blocked_on column.
    const first = TaskStore.open(path);
    first.insert(record('task_1'));
    first.close();
    const old = new DatabaseSync(path);
    old.exec('ALTER TABLE tasks DROP COLUMN blocked_on');
    old.close();
    const store = TaskStore.open(path);
    const progress = {
      turns: 1,
      toolCalls: 1,
      tokens: 10,
      lastActivityAt: 2000,
      lastToolName: 'Bash',
    };
    store.saveProgress('task_1', { ...progress, blockedOn: 'permission to use Bash' });
    const reader = TaskStore.read(path);
    expect(reader.get('task_1')?.progress).toEqual({
      ...progress,
      blockedOn: 'permission to use Bash',
    });
    store.saveProgress('task_1', { ...progress, blockedOn: null });
    expect(reader.get('task_1')?.progress).toEqual(progress);
    reader.close();
    store.close();
  });
});
