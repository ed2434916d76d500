// query()'s handle while the run's code loads: calls made before the run has started wait for
// it or are kept for it, and a load that fails fails the first next() like a run that cannot start.
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, RunResult } from '../core/events.js';
import { TaskManager } from '../tasks/task-manager.js';
import { loadingQuery } from './loading-query.js';
import type { Query } from './query-options.js';

const RESULT = { result: 'done' } as RunResult;
const HELLO: AgentEvent = {
  type: 'message_delta',
  agentId: 'main_t',
  parentId: null,
  depth: 0,
  text: 'hello',
};

/** A started run that yields one event, then ends with RESULT; its handles are spies. */
function startedRun(tasks: TaskManager) {
  async function* run(): AsyncGenerator<AgentEvent, RunResult> {
    yield HELLO;
    return RESULT;
  }
  return Object.assign(run(), {
    interrupt: vi.fn(),
    sendToBackground: vi.fn(() => ['child_1']),
    tasks,
  }) satisfies Query;
}

/** A load the test finishes when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('a query whose run is still loading', () => {
  it('answers next() calls made before the load, in order, once the run has started', async () => {
    const tasks = new TaskManager();
    const load = deferred<Query>();
    const query = loadingQuery(load.promise, tasks);

    const first = query.next();
    const second = query.next();
    load.resolve(startedRun(tasks));

    expect(await first).toEqual({ done: false, value: HELLO });
    expect(await second).toEqual({ done: true, value: RESULT });
  });

  it('is iterated with for await like the run itself', async () => {
    const tasks = new TaskManager();
    const events: AgentEvent[] = [];

    for await (const event of loadingQuery(Promise.resolve(startedRun(tasks)), tasks)) {
      events.push(event);
    }

    expect(events).toEqual([HELLO]);
  });

  it('keeps an interrupt() made before the load for the run', async () => {
    const tasks = new TaskManager();
    const run = startedRun(tasks);
    const load = deferred<Query>();
    const query = loadingQuery(load.promise, tasks);

    query.interrupt();
    load.resolve(run);
    await query.next();

    expect(run.interrupt).toHaveBeenCalledOnce();
  });

  it('sends no child to the background before the run has started, and hands it on after', async () => {
    const tasks = new TaskManager();
    const run = startedRun(tasks);
    const load = deferred<Query>();
    const query = loadingQuery(load.promise, tasks);

    expect(query.sendToBackground()).toEqual([]);
    load.resolve(run);
    await query.next();

    expect(query.sendToBackground('child_1')).toEqual(['child_1']);
    expect(run.sendToBackground).toHaveBeenCalledWith('child_1');
  });

  it('has its tasks at once', () => {
    const tasks = new TaskManager();

    expect(loadingQuery(deferred<Query>().promise, tasks).tasks).toBe(tasks);
  });

  it('fails the first next() when the run cannot load, and ends quietly on return()', async () => {
    const tasks = new TaskManager();
    const failing = loadingQuery(Promise.reject(new Error('cannot load')), tasks);

    await expect(failing.next()).rejects.toThrow('cannot load');
    expect(
      await loadingQuery(Promise.reject(new Error('cannot load')), tasks).return(RESULT),
    ).toEqual({ done: true, value: RESULT });
  });
});
