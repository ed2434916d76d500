import { describe, expect, it } from 'vitest';
import type { ItemRequest } from './item-request.js';
import {
  type ItemOutcome,
  type ItemRunner,
  runWorkflow,
  type WorkflowLimits,
} from './workflow-engine.js';
import type { WorkflowEvent } from './workflow-events.js';
import { WorkflowStore } from './workflow-store.js';

/** A runner that answers `done:<prompt>` (10 tokens), fails or hangs as told, and counts. */
function fakeRunner(
  behave: (
    prompt: string,
    signal: AbortSignal,
  ) => Promise<ItemOutcome | undefined> | ItemOutcome | undefined = () => undefined,
) {
  const ran: string[] = [];
  let running = 0;
  let peak = 0;
  const runner: ItemRunner & {
    ran: string[];
    peak: () => number;
    resumed: (string | undefined)[];
  } = {
    ran,
    resumed: [],
    peak: () => peak,
    async run(request: ItemRequest, control) {
      ran.push(request.prompt);
      runner.resumed.push(control.resumeAgentId);
      control.started(`agent_${ran.length}`);
      running++;
      peak = Math.max(peak, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 2));
        const special = await behave(request.prompt, control.signal);
        return (
          special ?? {
            status: 'completed',
            value: `done:${request.prompt}`,
            tokens: 10,
            costUsd: 0,
          }
        );
      } finally {
        running--;
      }
    },
  };
  return runner;
}

function newRun(
  store: WorkflowStore,
  source: string,
  options: { args?: unknown; budgetTokens?: number } = {},
) {
  const runId = `wf_${Math.random().toString(16).slice(2, 10)}`;
  store.createRun({
    runId,
    taskId: null,
    name: 'test',
    description: 'a test',
    filename: 'flow.js',
    source,
    args: JSON.stringify(options.args ?? {}),
    status: 'running',
    budgetTokens: options.budgetTokens ?? null,
  });
  return runId;
}

const FIVE = `
export const meta = { name: 'five', description: 'five items' };
export const result = await pipeline(['a', 'b', 'c', 'd', 'e'], (x) => agent('item ' + x));
`;

/** An item that runs until it is stopped. */
const hang = (_prompt: string, signal: AbortSignal) =>
  new Promise<ItemOutcome>((resolve) => {
    const stopped = () => resolve({ status: 'cancelled', tokens: 1, costUsd: 0 });
    if (signal.aborted) stopped();
    signal.addEventListener('abort', stopped, { once: true });
  });

describe('a workflow run', () => {
  it('completes with every item, and reports each', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    const result = await runWorkflow({ store, runId, runner: fakeRunner() });
    expect(result.status).toBe('completed');
    expect(result.result).toEqual([
      'done:item a',
      'done:item b',
      'done:item c',
      'done:item d',
      'done:item e',
    ]);
    expect(result.items.map((item) => item.status)).toEqual(Array(5).fill('completed'));
    expect(result.spentTokens).toBe(50);
  });

  it('says completed_with_errors, and why, when an item failed', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    const runner = fakeRunner((prompt) =>
      prompt === 'item c'
        ? { status: 'failed', error: 'the agent gave up', tokens: 3, costUsd: 0 }
        : undefined,
    );
    const result = await runWorkflow({ store, runId, runner });
    expect(result.status).toBe('completed_with_errors');
    expect(result.result).toEqual([
      'done:item a',
      'done:item b',
      null,
      'done:item d',
      'done:item e',
    ]);
    expect(result.items[2]).toMatchObject({
      label: 'item c',
      status: 'failed',
      error: 'the agent gave up',
    });
  });

  it('on resume runs only the failed item, whatever the order the script now asks in', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    let fail = true;
    const runner = fakeRunner((prompt) =>
      fail && prompt === 'item b'
        ? { status: 'failed', error: 'flaky', tokens: 1, costUsd: 0 }
        : undefined,
    );
    await runWorkflow({ store, runId, runner });
    fail = false;
    store.updateRun(runId, {
      source: FIVE.replace("['a', 'b', 'c', 'd', 'e']", "['e', 'd', 'c', 'b', 'a']"),
    });
    const again = fakeRunner();
    const result = await runWorkflow({ store, runId, runner: again, resumed: true });
    expect(again.ran).toEqual(['item b']);
    expect(result.status).toBe('completed');
    expect(result.cached).toBe(4);
    expect(result.result).toEqual([
      'done:item e',
      'done:item d',
      'done:item c',
      'done:item b',
      'done:item a',
    ]);
  });

  it('re-runs only the items an edited script changed', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    await runWorkflow({ store, runId, runner: fakeRunner() });
    store.updateRun(runId, { source: FIVE.replace("'c', 'd'", "'C', 'd'") });
    const again = fakeRunner();
    const result = await runWorkflow({ store, runId, runner: again, resumed: true });
    expect(again.ran).toEqual(['item C']);
    expect(result.launched).toBe(1);
  });

  it('keys identical calls by their occurrence, so each keeps its own result', async () => {
    const store = WorkflowStore.open(':memory:');
    const source = `let n = 0;
      export const result = await parallel(() => agent('same'), () => agent('same'), () => agent('same'));`;
    const runId = newRun(store, source);
    let count = 0;
    const first = await runWorkflow({
      store,
      runId,
      runner: fakeRunner(() => ({
        status: 'completed',
        value: `answer ${++count}`,
        tokens: 1,
        costUsd: 0,
      })),
    });
    const again = fakeRunner();
    const second = await runWorkflow({ store, runId, runner: again, resumed: true });
    expect(again.ran).toEqual([]);
    expect(second.result).toEqual(first.result);
    expect(new Set(first.result as string[]).size).toBe(3);
  });

  it('trips the breaker on a quota error: no launch after it, paused (never completed), and resume goes on', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    const runner = fakeRunner((prompt) =>
      prompt === 'item b'
        ? {
            status: 'failed',
            error: 'Model request failed: 429 insufficient_quota: You exceeded your current quota',
            tokens: 0,
            costUsd: 0,
          }
        : undefined,
    );
    const events: WorkflowEvent[] = [];
    const result = await runWorkflow({
      store,
      runId,
      runner,
      limits: { maxConcurrent: 1 },
      onEvent: (e) => events.push(e),
    });
    expect(runner.ran).toEqual(['item a', 'item b']);
    expect(result.status).toBe('paused');
    expect(result.reason).toMatch(/quota or usage limit: .*insufficient_quota/);
    expect(store.run(runId)?.status).toBe('paused');
    expect(events.at(-1)).toMatchObject({ type: 'workflow_end', status: 'paused' });
    const again = fakeRunner();
    const resumed = await runWorkflow({ store, runId, runner: again, resumed: true });
    expect(again.ran).toEqual(['item b', 'item c', 'item d', 'item e']);
    expect(resumed.status).toBe('completed');
  });

  it('stops the items that run when the breaker trips, and resumes them in their own agent', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    const runner = fakeRunner((prompt, signal) =>
      prompt === 'item e'
        ? { status: 'failed', error: '401 invalid x-api-key', tokens: 0, costUsd: 0 }
        : hang(prompt, signal),
    );
    const result = await runWorkflow({ store, runId, runner });
    expect(result.status).toBe('paused');
    expect(result.reason).toMatch(/credentials/);
    expect(store.items(runId).map((item) => item.status)).toEqual(Array(5).fill('paused'));
    const again = fakeRunner();
    await runWorkflow({ store, runId, runner: again, resumed: true });
    expect(again.resumed.slice(0, 4)).toEqual(['agent_1', 'agent_2', 'agent_3', 'agent_4']);
  });

  it('pauses at its budget with its state intact, and goes on when given more', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE, { budgetTokens: 30 });
    const runner = fakeRunner();
    const result = await runWorkflow({ store, runId, runner, limits: { maxConcurrent: 1 } });
    expect(runner.ran).toEqual(['item a', 'item b', 'item c']);
    expect(result).toMatchObject({ status: 'paused', spentTokens: 30 });
    expect(result.reason).toMatch(/budget is spent: 30 of 30 tokens/);
    store.updateRun(runId, { budgetTokens: 100 });
    const again = fakeRunner();
    const resumed = await runWorkflow({
      store,
      runId,
      runner: again,
      resumed: true,
      limits: { maxConcurrent: 1 },
    });
    expect(again.ran).toEqual(['item d', 'item e']);
    expect(resumed).toMatchObject({ status: 'completed', spentTokens: 50 });
  });

  it('tells the script its budget', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(
      store,
      `await agent('x'); export const result = [budget.total, budget.spent(), budget.remaining()];`,
      {
        budgetTokens: 100,
      },
    );
    expect((await runWorkflow({ store, runId, runner: fakeRunner() })).result).toEqual([
      100, 10, 90,
    ]);
  });

  it('fails an item that runs past its wall-clock limit, and the run goes on', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(
      store,
      `export const result = await parallel(() => agent('slow', { timeoutMs: 30 }), () => agent('quick'));`,
    );
    const result = await runWorkflow({
      store,
      runId,
      runner: fakeRunner((prompt, signal) =>
        prompt === 'slow' ? hang(prompt, signal) : undefined,
      ),
    });
    expect(result.status).toBe('completed_with_errors');
    expect(result.result).toEqual([null, 'done:quick']);
    expect(result.items[0]).toMatchObject({
      status: 'failed',
      error: 'timed out after 30 ms (timeoutMs)',
    });
  });

  it('runs at most maxConcurrent items at once', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(
      store,
      `export const result = await pipeline([...Array(40).keys()], (n) => agent('n' + n));`,
    );
    const runner = fakeRunner();
    const result = await runWorkflow({ store, runId, runner, limits: { maxConcurrent: 4 } });
    expect(result.status).toBe('completed');
    expect(runner.peak()).toBe(4);
  });

  it.each<[string, string, Partial<WorkflowLimits>, RegExp]>([
    [
      'more items in one call than allowed',
      `await pipeline([1,2,3,4,5], (n) => agent('n' + n));`,
      { maxItemsPerCall: 4 },
      /pipeline\(\) got 5 items; at most 4 per call/,
    ],
    [
      'more agents than allowed',
      `for (const n of [1,2,3]) await agent('n' + n);`,
      { maxAgents: 2 },
      /more than 2 agents, the limit of one run/,
    ],
    [
      'options it does not know',
      `await agent('x', { colour: 'red' });`,
      {},
      /agent\(prompt, options\): options: Unrecognized key/,
    ],
    [
      'a schema that is not an object',
      `await agent('x', { schema: { type: 'string' } });`,
      {},
      /schema must be an object schema/,
    ],
  ])('fails the run, with a clear error, for %s', async (_name, source, limits, message) => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, source);
    const result = await runWorkflow({ store, runId, runner: fakeRunner(), limits });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(message);
  });

  it('warns once before a run whose plan exceeds 25 agents', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, `await pipeline([...Array(30).keys()], (n) => agent('n' + n));`);
    const events: WorkflowEvent[] = [];
    await runWorkflow({ store, runId, runner: fakeRunner(), onEvent: (e) => events.push(e) });
    const warnings = events.filter((e) => e.type === 'workflow_warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      message: expect.stringContaining('more than 25 agents (30)'),
    });
    expect(events.findIndex((e) => e.type === 'workflow_warning')).toBeLessThan(
      events.findIndex((e) => e.type === 'workflow_item'),
    );
  });

  it('ends paused, resumable, when it is stopped', async () => {
    const store = WorkflowStore.open(':memory:');
    const runId = newRun(store, FIVE);
    const stop = new AbortController();
    const runner = fakeRunner((prompt, signal) => {
      if (prompt === 'item c') stop.abort();
      return hang(prompt, signal);
    });
    const result = await runWorkflow({ store, runId, runner, signal: stop.signal });
    expect(result).toMatchObject({ status: 'paused', reason: 'stopped before it finished' });
  });
});
