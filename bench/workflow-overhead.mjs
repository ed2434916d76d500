#!/usr/bin/env node
// The CPU a workflow adds per item, apart from its agents: a 1,000-item run at concurrency 100
// whose runner answers at once (so what is measured is the sandbox, the journal and the gate),
// then a resume of it with 990 items done (time to the first new item). Not part of
// `npm run bench` yet; run after `npm run build`: node bench/workflow-overhead.mjs
import { runWorkflow } from '../dist/workflows/workflow-engine.js';
import { WorkflowStore } from '../dist/workflows/workflow-store.js';

const ITEMS = 1000;
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
    args: JSON.stringify({ items: Array.from({ length: ITEMS }, (_, i) => i) }),
    status: 'running',
    budgetTokens: null,
  });
}

const instant = (fail) => ({
  async run(request, control) {
    control.started(`agent_${request.key.slice(0, 8)}`);
    if (fail?.(request)) return { status: 'failed', error: 'flaky', tokens: 1, costUsd: 0 };
    return { status: 'completed', value: 'ok', tokens: 1, costUsd: 0 };
  },
});

const store = WorkflowStore.open(':memory:');
// Warm-up: the interpreter's first load.
newRun(store, 'wf_warmup0');
await runWorkflow({
  store,
  runId: 'wf_warmup0',
  runner: instant(),
  limits: { maxConcurrent: 100 },
});

newRun(store, 'wf_00000001');
const before = process.cpuUsage();
const started = performance.now();
const first = await runWorkflow({
  store,
  runId: 'wf_00000001',
  runner: instant((r) => Number(r.prompt.split(' ')[1]) % 100 === 0),
  limits: { maxConcurrent: 100 },
});
const cpu = process.cpuUsage(before);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `run: ${ITEMS} items, ${first.status}, ${(performance.now() - started).toFixed(0)} ms wall, ${(cpuMs / ITEMS).toFixed(3)} ms CPU per item`,
);

const resumeStart = performance.now();
let firstNew;
await runWorkflow({
  store,
  runId: 'wf_00000001',
  resumed: true,
  limits: { maxConcurrent: 100 },
  runner: {
    run(request, control) {
      firstNew ??= performance.now() - resumeStart;
      return instant().run(request, control);
    },
  },
});
console.log(`resume with ${ITEMS - 10} done: first new item after ${firstNew?.toFixed(0)} ms`);
