// The task lifecycle on its own, with an executor the test ends by hand: rows before reports,
// exactly-once delivery of notifications and messages (in a burst, across a restart), progress
// that is not written per update, and what happens to an agent's tasks when its loop ends.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { TaskControl, TaskExecutor, TaskOutcome, TaskStatus } from '../core/tasks.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { TaskManager } from './task-manager.js';
import { TaskStore } from './task-store.js';

/** Runs nothing: each task ends when the test says so. */
class ManualExecutor implements TaskExecutor<string> {
  readonly kind = 'local_agent' as const;
  readonly controls = new Map<string, TaskControl>();
  readonly #ends = new Map<string, (outcome: TaskOutcome) => void>();
  readonly #results = new Map<string, Promise<TaskOutcome>>();

  start(taskId: string, _spec: string, control: TaskControl): void {
    this.controls.set(taskId, control);
    this.#results.set(taskId, new Promise((resolve) => this.#ends.set(taskId, resolve)));
    control.signal.addEventListener('abort', () => this.end(taskId, 'cancelled', 'partial'));
    control.running();
  }

  async status(taskId: string): Promise<TaskStatus | undefined> {
    return this.#ends.has(taskId) ? 'running' : undefined;
  }

  stop(): void {}

  result(taskId: string): Promise<TaskOutcome> {
    return this.#results.get(taskId)!;
  }

  output(): string {
    return 'so far';
  }

  end(
    taskId: string,
    status: TaskOutcome['status'] = 'completed',
    result = `${taskId} done`,
  ): void {
    this.#ends.get(taskId)?.({
      status,
      result,
      agentStatus: status === 'completed' ? 'completed' : 'cancelled',
      usage: null,
      costUsd: null,
      resultPath: null,
    });
    this.#ends.delete(taskId);
  }
}

const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };
const child: AgentRef = { agentId: 'child', parentId: 'main', depth: 1 };
const meta = (owner: AgentRef, description = 'work') => ({
  kind: 'local_agent' as const,
  description,
  owner,
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('TaskManager', () => {
  it('writes every state change to the store before it reports it', async () => {
    const seen: string[] = [];
    let manager: TaskManager | undefined;
    manager = new TaskManager({
      onEvent: (event) => {
        if (event.type === 'task_started' || event.type === 'task_notification') {
          seen.push(`${event.type}:${manager!.store.get(event.taskId)?.status}`);
        }
      },
    });
    const executor = new ManualExecutor();
    const task = manager.start(executor, 'spec', meta(main));
    expect(task.status).toBe('running');
    executor.end(task.taskId);
    await manager.waitAll();
    expect(seen).toEqual(['task_started:running', 'task_notification:completed']);
  });

  it('delivers 50 tasks ending in the same millisecond as 50 notifications, each once', async () => {
    const manager = new TaskManager();
    const executor = new ManualExecutor();
    const inbox = manager.inboxFor(main);
    const tasks = Array.from({ length: 50 }, (_, index) =>
      manager.start(executor, 'spec', meta(main, `task ${index}`)),
    );
    for (const task of tasks) executor.end(task.taskId);
    await settle();
    const delivery = inbox.take()!;
    const ids = [...delivery.message.content.matchAll(/<task-id>(\w+)<\/task-id>/g)].map(
      (m) => m[1],
    );
    expect(ids.sort()).toEqual(tasks.map((task) => task.taskId).sort());
    delivery.delivered();
    expect(inbox.take()).toBeUndefined();
    expect(manager.list().every((task) => task.notifiedAt !== null)).toBe(true);
  });

  it('neither loses nor repeats a notification across a restart', async () => {
    const path = join(await makeTempDir(), 'tasks.db');
    const first = new TaskManager({ store: TaskStore.open(path) });
    const executor = new ManualExecutor();
    const inbox = first.inboxFor(main);
    const [a, b, c] = [1, 2, 3].map(() => first.start(executor, 'spec', meta(main)));
    executor.end(a!.taskId);
    executor.end(b!.taskId);
    await settle();
    inbox.take()!.delivered();
    executor.end(c!.taskId);
    await settle();
    // Killed here: c has ended and was never taken.
    first.store.close();

    const second = new TaskManager({ store: TaskStore.open(path) });
    const again = second.inboxFor(main);
    const delivery = again.take()!;
    expect(delivery.message.content).toContain(`<task-id>${c!.taskId}</task-id>`);
    expect(delivery.message.content).not.toContain(a!.taskId);
    expect(delivery.message.content).not.toContain(b!.taskId);
    delivery.delivered();
    second.store.close();
    const third = new TaskManager({ store: TaskStore.open(path) });
    expect(third.inboxFor(main).take()).toBeUndefined();
    third.store.close();
  });

  it('records a message before it is delivered, and a restart gives back only what was not read', async () => {
    const path = join(await makeTempDir(), 'tasks.db');
    const first = new TaskManager({ store: TaskStore.open(path) });
    const executor = new ManualExecutor();
    const task = first.start(executor, 'spec', { ...meta(main), agentId: child.agentId });
    const inbox = first.inboxFor(child);
    const unread = (manager: TaskManager) =>
      manager.store.unreadMessages(task.taskId).map((message) => message.messageId);
    expect(first.sendTo(child.agentId, { text: 'M-ONE', messageId: 'msg_1' })).toBe(true);
    expect(unread(first)).toEqual(['msg_1']);
    const delivery = inbox.take()!;
    expect(delivery.message.content).toContain('M-ONE');
    delivery.delivered();
    expect(unread(first)).toEqual([]);
    first.sendTo(child.agentId, { text: 'M-TWO', messageId: 'msg_2' });
    // Taken into the conversation (its transcript has it), killed before it was marked read.
    expect(inbox.take()!.message.content).toContain('M-TWO');
    first.sendTo(child.agentId, { text: 'M-THREE', messageId: 'msg_3' });
    // Killed here: M-THREE was never taken.
    first.store.close();

    const second = new TaskManager({ store: TaskStore.open(path) });
    const again = second.inboxFor(child);
    expect(again.take()).toBeUndefined();
    second.redeliverMessages(task.taskId, ['msg_2']);
    const redelivered = again.take()!;
    expect(redelivered.message.content).toContain('M-THREE');
    expect(redelivered.message.content).not.toMatch(/M-ONE|M-TWO/);
    redelivered.delivered();
    second.store.close();
    const third = new TaskManager({ store: TaskStore.open(path) });
    const last = third.inboxFor(child);
    third.redeliverMessages(task.taskId, []);
    expect(last.take()).toBeUndefined();
    // A loop that has ended takes nothing: the message is neither delivered nor recorded.
    last.close();
    expect(third.sendTo(child.agentId, { text: 'late', messageId: 'msg_4' })).toBe(false);
    expect(unread(third)).toEqual([]);
    third.store.close();
  });

  it('writes progress at most once per interval, and the last of it at the end', async () => {
    const events: AgentEvent[] = [];
    const manager = new TaskManager({ onEvent: (event) => events.push(event) });
    const executor = new ManualExecutor();
    const task = manager.start(executor, 'spec', meta(main));
    const control = executor.controls.get(task.taskId)!;
    for (let turn = 1; turn <= 100; turn++) control.progress({ turns: turn, tokens: turn * 10 });
    expect(events.filter((event) => event.type === 'task_progress')).toHaveLength(0);
    expect(manager.store.get(task.taskId)?.progress.turns).toBe(0);
    executor.end(task.taskId);
    await manager.waitAll();
    expect(manager.store.get(task.taskId)?.progress).toMatchObject({ turns: 100, tokens: 1000 });
  });

  it('waits with a timeout, and stops a task with its partial result', async () => {
    const manager = new TaskManager();
    const executor = new ManualExecutor();
    const task = manager.start(executor, 'spec', meta(main));
    expect((await manager.wait(task.taskId, { timeoutMs: 10 })).status).toBe('running');
    const stopped = await manager.stop(task.taskId, 'enough');
    expect(stopped).toMatchObject({ status: 'cancelled', result: 'partial' });
    expect(executor.controls.get(task.taskId)?.signal.reason).toMatchObject({
      status: 'cancelled',
      message: 'enough',
    });
  });

  it('stops what an agent still runs when its loop ends, and hands its unread news up', async () => {
    const manager = new TaskManager();
    const executor = new ManualExecutor();
    const mainInbox = manager.inboxFor(main);
    const childInbox = manager.inboxFor(child);
    const finished = manager.start(executor, 'spec', meta(child, 'finished'));
    const running = manager.start(executor, 'spec', meta(child, 'running'));
    executor.end(finished.taskId);
    await settle();
    childInbox.close();
    await manager.waitAll();
    expect(manager.get(running.taskId)?.status).toBe('cancelled');
    const delivery = mainInbox.take()!;
    expect(delivery.message.content).toContain(finished.taskId);
    expect(delivery.message.content).toContain(running.taskId);
  });

  it('keeps the tasks of a host that manages them (waitForBackground: false)', async () => {
    const manager = new TaskManager();
    const executor = new ManualExecutor();
    const inbox = manager.inboxFor(main, { root: true, keepTasks: true });
    const task = manager.start(executor, 'spec', meta(main));
    inbox.close();
    expect(manager.get(task.taskId)?.status).toBe('running');
    executor.end(task.taskId);
    expect(await manager.wait(task.taskId)).toMatchObject({
      status: 'completed',
      notifiedAt: null,
    });
  });

  it('lets a waiting owner go on when its last task ends, and says idle when none runs', async () => {
    const manager = new TaskManager();
    const executor = new ManualExecutor();
    const inbox = manager.inboxFor(main);
    const signal = new AbortController().signal;
    expect(await inbox.wait(signal)).toBe('idle');
    const task = manager.start(executor, 'spec', meta(main));
    const waiting = inbox.wait(signal);
    executor.end(task.taskId);
    expect(await waiting).toBe('ready');
  });
});
