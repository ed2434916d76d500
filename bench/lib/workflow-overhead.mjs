// The workflow scenario, run as its own process: the CPU a workflow adds per item apart from its
// agents (a `items`-item run at `concurrency` whose runner answers at once, so what is measured
// is the sandbox, the journal and the gate), then a resume of it with all but 1 % of the items
// done: the time to its first new item. Prints `RESULT <json>` like the workers do.
import { performance } from 'node:perf_hooks';

const dist = new URL('../../dist/', import.meta.url);
const { runWorkflow } = await import(new URL('workflows/workflow-engine.js', dist));
const { WorkflowStore } = await import(new URL('workflows/workflow-store.js', dist));

const { items = 1000, concurrency = 100 } = JSON.parse(process.argv[2] ?? '{}');
const SOURCE = `export const meta = { name: 'bench', description: 'bench' };
export const result = (await pipeline(args.items, (n) => agent('item ' + n))).length;`;

function newRun(store, runId) {
  store.createRun({
    runId,
    taskId: null,
    name: 'bench',
    description: 'bench',
    filename: 'bench.js',
    source: SOURCE,
    args: JSON.stringify({ items: Array.from({ length: items }, (_, i) => i) }),
    status: 'running',
    budgetTokens: null,
  });
}

/** Answers every item at once; `fail` picks the items that fail (to be run again on resume). */
const instant = (fail) => ({
  async run(request, control) {
    control.started(`agent_${request.key.slice(0, 8)}`);
    if (fail?.(request)) return { status: 'failed', error: 'flaky', tokens: 1, costUsd: 0 };
    return { status: 'completed', value: 'ok', tokens: 1, costUsd: 0 };
  },
});

try {
  const store = WorkflowStore.open(':memory:');
  const limits = { maxConcurrent: concurrency };
  // Warm-up: the interpreter's first load.
  newRun(store, 'wf_warmup0');
  await runWorkflow({ store, runId: 'wf_warmup0', runner: instant(), limits });

  newRun(store, 'wf_00000001');
  const before = process.cpuUsage();
  const started = performance.now();
  const first = await runWorkflow({
    store,
    runId: 'wf_00000001',
    // One item in a hundred fails, so the resume below has work to start.
    runner: instant((request) => Number(request.prompt.split(' ')[1]) % 100 === 0),
    limits,
  });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(before);
  if (first.items.length !== items) throw new Error(`the run made ${first.items.length} calls`);

  const resumeStart = performance.now();
  let resumeFirstNewMs;
  await runWorkflow({
    store,
    runId: 'wf_00000001',
    resumed: true,
    limits,
    runner: {
      run(request, control) {
        resumeFirstNewMs ??= performance.now() - resumeStart;
        return instant().run(request, control);
      },
    },
  });
  const sample = {
    items,
    wallMs,
    cpuMsPerItem: (cpu.user + cpu.system) / 1000 / items,
    resumeFirstNewMs,
  };
  console.log(`RESULT ${JSON.stringify({ ok: true, samples: [sample] })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
}
