import { describe, expect, it } from 'vitest';
import type { ItemRunner } from './workflow-engine.js';
import { runWorkflow } from './workflow-engine.js';
import { type RecordPort, ReplicatedRecord } from './workflow-record.js';
import { WorkflowStore } from './workflow-store.js';

/** A record kept elsewhere, in memory: what a Restate `workflowRecord` object holds. */
function memoryPort(delays: number[] = []) {
  const runs = new Map<string, Record<string, string>>();
  const writes: string[] = [];
  let calls = 0;
  const port: RecordPort = {
    async write(runId, entries) {
      // Each write takes its own time (the nth write `delays[n]` ms): a later one may be quicker.
      await new Promise((resolve) => setTimeout(resolve, delays[calls++] ?? 1));
      writes.push(...Object.keys(entries));
      runs.set(runId, { ...runs.get(runId), ...entries });
    },
    async read(runId) {
      return { ...runs.get(runId) };
    },
  };
  return { port, runs, writes };
}

const SCRIPT = `export const meta = { name: 'three', description: 'three agents' };
export const result = await pipeline(['a', 'b', 'c'], (x) => agent('item ' + x));`;

/** Answers `done:<prompt>`, except prompts in `fail`, which fail; records what it ran. */
function runner(fail: Set<string> = new Set()) {
  const ran: string[] = [];
  const itemRunner: ItemRunner = {
    async run(request, control) {
      ran.push(request.prompt);
      control.started(`agent_${ran.length}`);
      if (fail.has(request.prompt)) {
        return {
          status: 'failed',
          error: 'broke with sk-abcdefghijklmnopqrstuv',
          tokens: 1,
          costUsd: null,
        };
      }
      return { status: 'completed', value: `done:${request.prompt}`, tokens: 5, costUsd: null };
    },
  };
  return { itemRunner, ran };
}

async function startRun(record: ReplicatedRecord, runId: string) {
  await record.createRun({
    runId,
    taskId: 'task_local',
    name: 'three',
    description: 'three agents',
    filename: 'three.js',
    source: SCRIPT,
    args: '{}',
    status: 'running',
    budgetTokens: null,
  });
}

describe('a workflow run kept elsewhere as well (ReplicatedRecord)', () => {
  it('writes the run and every item there, the local task id left out', async () => {
    const { port, runs } = memoryPort();
    const record = new ReplicatedRecord(WorkflowStore.open(':memory:'), port);
    await startRun(record, 'wf_0000000a');
    const { itemRunner } = runner();
    const result = await runWorkflow({ store: record, runId: 'wf_0000000a', runner: itemRunner });
    expect(result.status).toBe('completed');
    const kept = runs.get('wf_0000000a')!;
    expect(JSON.parse(kept.run!)).toMatchObject({
      status: 'completed',
      taskId: null,
      spentTokens: 15,
    });
    const items = Object.keys(kept).filter((name) => name.startsWith('item:'));
    expect(items).toHaveLength(3);
    for (const name of items)
      expect(JSON.parse(kept[name]!)).toMatchObject({ status: 'completed' });
  });

  it('is taken up by another store: completed items answer from it, only the failed one runs', async () => {
    const { port, runs } = memoryPort();
    const first = new ReplicatedRecord(WorkflowStore.open(':memory:'), port);
    await startRun(first, 'wf_0000000b');
    const broken = runner(new Set(['item b']));
    const before = await runWorkflow({
      store: first,
      runId: 'wf_0000000b',
      runner: broken.itemRunner,
    });
    expect(before.status).toBe('completed_with_errors');
    // No secret leaves the process: the failed item's error is redacted before it is written.
    expect(runs.get('wf_0000000b')!.run).not.toContain('sk-abcdefghijklmnopqrstuv');
    expect(Object.values(runs.get('wf_0000000b')!).join('\n')).not.toContain(
      'sk-abcdefghijklmnopqrstuv',
    );

    const elsewhere = new ReplicatedRecord(WorkflowStore.open(':memory:'), port);
    expect(elsewhere.run('wf_0000000b')).toBeUndefined();
    expect(await elsewhere.fetchRun('wf_0000000b')).toMatchObject({ name: 'three', taskId: null });
    const fixed = runner();
    const after = await runWorkflow({
      store: elsewhere,
      runId: 'wf_0000000b',
      runner: fixed.itemRunner,
      resumed: true,
    });
    expect(after).toMatchObject({ status: 'completed', cached: 2, launched: 1 });
    expect(fixed.ran).toEqual(['item b']);
    expect(after.result).toEqual(['done:item a', 'done:item b', 'done:item c']);
  });

  it('takes in, on the first machine, the items another machine completed since', async () => {
    const { port } = memoryPort();
    const first = new ReplicatedRecord(WorkflowStore.open(':memory:'), port);
    await startRun(first, 'wf_0000000e');
    await runWorkflow({
      store: first,
      runId: 'wf_0000000e',
      runner: runner(new Set(['item c'])).itemRunner,
    });
    const elsewhere = new ReplicatedRecord(WorkflowStore.open(':memory:'), port);
    await elsewhere.fetchRun('wf_0000000e');
    await runWorkflow({ store: elsewhere, runId: 'wf_0000000e', runner: runner().itemRunner });
    // Back on the first machine, whose own store still says c failed.
    expect(await first.fetchRun('wf_0000000e')).toMatchObject({ spentTokens: 16 });
    const again = runner();
    const result = await runWorkflow({
      store: first,
      runId: 'wf_0000000e',
      runner: again.itemRunner,
    });
    expect(result).toMatchObject({ status: 'completed', cached: 3, launched: 0 });
    expect(again.ran).toEqual([]);
  });

  it('finds no run that is kept nowhere', async () => {
    const record = new ReplicatedRecord(WorkflowStore.open(':memory:'), memoryPort().port);
    expect(await record.fetchRun('wf_0000000c')).toBeUndefined();
  });

  it('lands the writes of one item in the order they were made, those made meanwhile as one', async () => {
    const { port, writes } = memoryPort([0, 40, 20, 0]);
    const record = new ReplicatedRecord(WorkflowStore.open(':memory:'), port);
    await startRun(record, 'wf_0000000d');
    const item = { key: 'ab', occurrence: 0, label: 'x', agentId: null };
    void record.startItem('wf_0000000d', item);
    void record.setItemAgent('wf_0000000d', 'ab', 0, 'agent_1');
    const end = {
      status: 'completed' as const,
      result: '"ok"',
      error: null,
      tokens: 1,
      costUsd: null,
    };
    await record.endItem('wf_0000000d', 'ab', 0, end);
    // The start went at once; the two changes made while it was under way went together, after it.
    expect(writes).toEqual(['run', 'item:ab#0', 'item:ab#0']);
    const kept = JSON.parse((await port.read('wf_0000000d'))['item:ab#0']!);
    expect(kept).toMatchObject({ status: 'completed', agentId: 'agent_1', result: '"ok"' });
  });
});
