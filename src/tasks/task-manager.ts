// The lifecycle of a run's background tasks, whatever runs them: a row in the store before
// anything is reported, progress at most once a second, the ending (and a message to a running
// agent) written and then delivered exactly once, stop and wait. Executors only do the work.

import { AbortFanOut } from '../core/abort-fan-out.js';
import { AgentStop } from '../core/agent-stop.js';
import type { Lend } from '../core/background-port.js';
import type { DistributiveOmit } from '../core/distributive-omit.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { RunIds } from '../core/run-ids.js';
import { RUN_KNOBS } from '../core/run-knobs.js';
import { settleWithin } from '../core/settle-within.js';
import type {
  TaskControl,
  TaskExecutor,
  TaskMeta,
  TaskOutcome,
  TaskRecord,
} from '../core/tasks.js';
import { AgentInbox, type AgentInboxHooks, type InboxItem } from './agent-inbox.js';
import { AgentInboxes } from './agent-inboxes.js';
import type { TaskManagerOptions, WaitOptions } from './task-manager-options.js';
import { notificationBlock } from './task-notification.js';
import {
  copyRecord,
  executorFailure,
  isUndelivered,
  newTaskRecord,
  taskEnding,
  taskEventFields,
} from './task-record.js';
import { TaskStore } from './task-store.js';

export type { TaskManagerOptions, WaitOptions } from './task-manager-options.js';

interface LiveTask {
  record: TaskRecord;
  executor: TaskExecutor<never>;
  stop: AbortController;
  ended: Promise<TaskRecord>;
  /** `task_started` went out: later changes are reported as progress. */
  announced: boolean;
  progressWrittenAt: number;
  progressDirty: boolean;
}

export class TaskManager {
  readonly store: TaskStore;
  /** Aborts when the run is cancelled or the manager shuts down: background work follows it. */
  readonly signal: AbortSignal;
  readonly #shutdown = new AbortController();
  readonly #fanOut: AbortFanOut;
  readonly #onEvent: (event: AgentEvent) => void;
  readonly #resultMaxChars: number;
  readonly #progressIntervalMs: number;
  readonly #records = new Map<string, TaskRecord>();
  readonly #live = new Map<string, LiveTask>();
  /** Pending or running tasks per owner: what an owner's loop waits for. */
  readonly #running = new Map<string, number>();
  readonly #inboxes = new AgentInboxes();
  /** Tasks whose owner reads the ending itself (`claim`): no notification goes to its inbox. */
  readonly #claimed = new Set<string>();
  /** What every inbox calls back: made once, not per agent (a thousand children, say). */
  readonly #inboxHooks: AgentInboxHooks = {
    delivered: (taskIds, messageIds) => this.#delivered(taskIds, messageIds),
    running: (agentId) => this.#running.get(agentId) ?? 0,
    closed: (closed) => this.#closed(closed),
  };
  readonly #runIds: RunIds | undefined;
  /** Every agent that owns or owned a task here. */
  readonly #owners = new Set<string>();

  constructor(options: TaskManagerOptions = {}) {
    this.store = options.store ?? TaskStore.open(':memory:');
    this.signal = options.signal
      ? AbortSignal.any([options.signal, this.#shutdown.signal])
      : this.#shutdown.signal;
    this.#fanOut = new AbortFanOut(this.signal);
    this.#onEvent = options.onEvent ?? (() => {});
    this.#resultMaxChars = options.resultMaxChars ?? RUN_KNOBS.resultMaxChars;
    this.#progressIntervalMs = options.progressIntervalMs ?? 1000;
    this.#runIds = options.runIds;
    for (const record of this.store.list()) this.#keep(record);
  }

  #keep(record: TaskRecord): void {
    this.#records.set(record.taskId, record);
    this.#owners.add(record.owner.agentId);
  }

  /** Starts a task: written (pending), run, `task_started`; returns its record as it stands. */
  start<Spec>(executor: TaskExecutor<Spec>, spec: Spec, meta: TaskMeta): TaskRecord {
    const record = newTaskRecord(meta, this.#runIds);
    this.store.insert(record);
    this.#keep(record);
    return this.#run(record, executor, spec);
  }

  /** Runs a task again after a crash under its old id: running again, its ending forgotten. */
  restart<Spec>(
    taskId: string,
    executor: TaskExecutor<Spec>,
    spec: Spec,
    owner: AgentRef,
  ): TaskRecord {
    const known = this.#records.get(taskId);
    if (!known) throw new Error(`no task ${taskId} to restart`);
    this.store.restart(taskId, owner);
    const record = this.store.get(taskId)!;
    this.#keep(record);
    return this.#run(record, executor, spec);
  }

  /** Every task of the store, this run's and earlier ones', oldest first. */
  list(): TaskRecord[] {
    return [...this.#records.values()].map(copyRecord);
  }

  get(taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    return record && copyRecord(record);
  }

  /** What a running task has produced so far (its ending once it has ended). */
  output(taskId: string): string {
    const live = this.#live.get(taskId);
    return live ? live.executor.output(taskId) : (this.#records.get(taskId)?.result ?? '');
  }

  /** Resolves when the task has ended, or as it stands when the timeout or signal comes first. */
  async wait(taskId: string, options: WaitOptions = {}): Promise<TaskRecord> {
    const live = this.#live.get(taskId);
    const record = this.#records.get(taskId);
    if (!record) throw new Error(`no task ${taskId}`);
    if (live) await settleWithin(live.ended, options);
    return copyRecord(record);
  }

  /** Resolves when no task of this run is pending or running. */
  async waitAll(): Promise<TaskRecord[]> {
    while (this.#live.size > 0) await Promise.all([...this.#live.values()].map((t) => t.ended));
    return this.list();
  }

  /** Stops a task and its subtree; resolves with its final record (cancelled, with what it had). */
  async stop(taskId: string, reason = 'Stopped.', options: WaitOptions = {}): Promise<TaskRecord> {
    const live = this.#live.get(taskId);
    if (live) {
      const agentId = live.record.agentId ?? live.record.owner.agentId;
      live.stop.abort(new AgentStop('cancelled', agentId, reason));
      live.executor.stop(taskId, reason);
    }
    return this.wait(taskId, options);
  }

  /** Stops every running task of this run and waits for them to end, at most `graceMs`. */
  async shutdown(graceMs = 10_000): Promise<void> {
    this.#shutdown.abort(new Error('The run ended.'));
    for (const [taskId, live] of this.#live) live.executor.stop(taskId, 'The run ended.');
    await settleWithin(this.waitAll(), { timeoutMs: graceMs });
  }

  /**
   * The inbox of an agent. `root`: the main agent's, which also passes background agents'
   * events into the run's stream; `keepTasks`: its tasks outlive its loop (the host manages them).
   */
  inboxFor(
    ref: AgentRef,
    options: { root?: boolean; keepTasks?: boolean; lend?: Lend } = {},
  ): AgentInbox {
    const hooks = options.lend ? { ...this.#inboxHooks, lend: options.lend } : this.#inboxHooks;
    const inbox = new AgentInbox(ref, hooks, options);
    this.#inboxes.add(inbox, options);
    // What ended earlier and was never delivered (a restart) is delivered now. A new agent owns
    // nothing: no look through every task of the run for each of a thousand children.
    if (!this.#owners.has(ref.agentId)) return inbox;
    for (const record of this.#records.values()) {
      if (record.owner.agentId === ref.agentId && isUndelivered(record)) {
        inbox.push(this.#itemOf(record));
      }
    }
    return inbox;
  }

  /** A message for an agent whose loop runs (false: it takes none any more), recorded first. */
  sendTo(agentId: string, item: InboxItem): boolean {
    const inbox = this.#inboxes.get(agentId);
    if (!inbox || inbox.closed) return false;
    const { messageId, text } = item;
    const task = [...this.#live.values()].find((live) => live.record.agentId === agentId);
    const taskId = task?.record.taskId ?? null;
    if (messageId)
      this.store.insertMessage({ messageId, agentId, taskId, text, sentAt: Date.now() });
    return inbox.push(item);
  }

  /**
   * A task restarted after a crash gets back the messages it had not read (before it runs): all
   * of its unread ones but `read`, those its transcript already has, which are marked read.
   */
  redeliverMessages(taskId: string, read: readonly string[]): void {
    this.store.markRead(read, Date.now());
    const inbox = this.#inboxes.get(this.#records.get(taskId)?.agentId ?? '');
    for (const { messageId, text } of this.store.unreadMessages(taskId)) {
      inbox?.push({ messageId, text });
    }
  }

  /** The owner waits for the ending itself (a workflow for its item's): it is never notified. */
  claim(taskId: string): void {
    this.#claimed.add(taskId);
    this.acknowledge(taskId);
  }

  /** The owner read the ending another way (TaskOutput, TaskStop): no notification follows. */
  acknowledge(taskId: string): void {
    const record = this.#records.get(taskId);
    if (!record || !isUndelivered(record)) return;
    this.#inboxes.get(record.owner.agentId)?.withdraw(taskId);
    this.#delivered([taskId]);
  }

  /** Gives tasks of agents that are gone (a crashed run's main agent) to `owner`. */
  reown(taskIds: readonly string[], owner: AgentRef): void {
    this.store.reown(taskIds, owner);
    const inbox = this.#inboxes.live(owner.agentId);
    for (const taskId of taskIds) {
      const record = this.#records.get(taskId);
      if (!record) continue;
      record.owner = owner;
      this.#owners.add(owner.agentId);
      // Ended while its old owner was gone and never delivered: the new owner gets it now.
      if (isUndelivered(record)) inbox?.push(this.#itemOf(record));
    }
  }

  /** Records deliveries made in an earlier run that the store missed (killed in between). */
  markDelivered(taskIds: readonly string[]): void {
    this.#delivered(taskIds.filter((id) => this.#records.has(id)));
  }

  #run<Spec>(record: TaskRecord, executor: TaskExecutor<Spec>, spec: Spec): TaskRecord {
    const stop = new AbortController();
    const unfollow = this.#fanOut.add(() => stop.abort(this.signal.reason));
    const live: LiveTask = {
      record,
      executor: executor as TaskExecutor<never>,
      stop,
      ended: Promise.resolve(record),
      announced: false,
      progressWrittenAt: 0,
      progressDirty: false,
    };
    this.#live.set(record.taskId, live);
    this.#count(record.owner.agentId, +1);
    executor.start(record.taskId, spec, this.#control(live));
    live.ended = executor
      .result(record.taskId)
      .catch((error: unknown): TaskOutcome => executorFailure(error))
      .then((outcome) => {
        unfollow();
        return this.#finish(live, outcome);
      });
    this.#report({ type: 'task_started', ...taskEventFields(record) }, record.owner);
    live.announced = true;
    return copyRecord(record);
  }

  #control(live: LiveTask): TaskControl {
    const { record } = live;
    return {
      taskId: record.taskId,
      signal: live.stop.signal,
      running: (details) => {
        if (record.status !== 'pending') return;
        const at = Date.now();
        record.pid = details?.pid ?? null;
        this.store.markRunning(record.taskId, at, record.pid);
        record.status = 'running';
        record.startedAt = at;
        record.progress.lastActivityAt = at;
        live.progressWrittenAt = at;
        // Started at once, `task_started` says running; started later, progress says so.
        if (live.announced) this.#reportProgress(live);
      },
      progress: (update) => {
        const blocked = (update.blockedOn ?? null) !== (record.progress.blockedOn ?? null);
        Object.assign(record.progress, update);
        live.progressDirty = true;
        // A wait on a person (or its end) is said at once, not at the next throttled write.
        if (blocked || Date.now() - live.progressWrittenAt >= this.#progressIntervalMs) {
          this.#writeProgress(live);
        }
      },
      emit: (event) => this.#inboxes.passEvent(event),
    };
  }

  #writeProgress(live: LiveTask): void {
    this.store.saveProgress(live.record.taskId, live.record.progress);
    live.progressWrittenAt = Date.now();
    live.progressDirty = false;
    this.#reportProgress(live);
  }

  #reportProgress(live: LiveTask): void {
    const { record } = live;
    this.#report(
      { type: 'task_progress', ...taskEventFields(record), progress: { ...record.progress } },
      record.owner,
    );
  }

  /** Ends a task that no executor runs any more (it ran when an earlier process died). */
  endInterrupted(taskId: string, outcome: TaskOutcome): TaskRecord {
    const record = this.#records.get(taskId);
    if (!record) throw new Error(`no task ${taskId}`);
    return this.#end(record, outcome);
  }

  #finish(live: LiveTask, outcome: TaskOutcome): TaskRecord {
    if (live.progressDirty) this.store.saveProgress(live.record.taskId, live.record.progress);
    this.#live.delete(live.record.taskId);
    this.#count(live.record.owner.agentId, -1);
    return this.#end(live.record, outcome);
  }

  /** Writes the ending, reports it, and hands the notification to the owner (or its nearest live ancestor). */
  #end(record: TaskRecord, outcome: TaskOutcome): TaskRecord {
    const at = Date.now();
    this.store.finish(record.taskId, outcome, at);
    Object.assign(record, {
      status: outcome.status,
      agentStatus: outcome.agentStatus,
      endedAt: at,
      result: outcome.result,
      resultPath: outcome.resultPath,
      error: outcome.error ?? null,
      usage: outcome.usage,
      costUsd: outcome.costUsd,
    });
    this.#report(
      {
        type: 'task_notification',
        ...taskEventFields(record),
        ...taskEnding(record, this.#resultMaxChars),
      },
      record.owner,
    );
    // A claimed ending is read by its owner's own wait: delivered as it is written.
    if (this.#claimed.delete(record.taskId)) this.#delivered([record.taskId]);
    else this.#inboxes.live(record.owner.agentId)?.push(this.#itemOf(record));
    this.#inboxes.get(record.owner.agentId)?.notify();
    return copyRecord(record);
  }

  #itemOf(record: TaskRecord): InboxItem {
    return {
      taskId: record.taskId,
      text: notificationBlock(record, taskEnding(record, this.#resultMaxChars)),
    };
  }

  #report(fields: DistributiveOmit<AgentEvent, keyof AgentRef>, owner: AgentRef): void {
    const event = { ...owner, ...fields } as AgentEvent;
    this.#onEvent(event);
    this.#inboxes.passEvent(event);
  }

  #delivered(taskIds: readonly string[], messageIds: readonly string[] = []): void {
    const at = Date.now();
    this.store.markRead(messageIds, at);
    const fresh = taskIds.filter((id) => {
      const record = this.#records.get(id);
      return record !== undefined && record.notifiedAt === null;
    });
    this.store.markNotified(fresh, at);
    for (const id of fresh) this.#records.get(id)!.notifiedAt = at;
  }

  /** An agent's loop ended: what it still ran stops with it, what it never read goes up. */
  #closed(inbox: AgentInbox): void {
    this.#inboxes.close(inbox);
    if (inbox.keepTasks) return;
    for (const [taskId, live] of this.#live) {
      if (live.record.owner.agentId === inbox.ref.agentId) {
        void this.stop(taskId, 'The agent that started it ended.');
      }
    }
  }

  #count(ownerId: string, delta: number): void {
    const count = (this.#running.get(ownerId) ?? 0) + delta;
    if (count > 0) this.#running.set(ownerId, count);
    else this.#running.delete(ownerId);
  }
}
