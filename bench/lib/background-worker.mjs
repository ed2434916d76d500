// The background scenario in a fresh process: warren's own cost of background children, with a
// model in the process (no HTTP, so only warren is measured). Prints `RESULT <json>`.
//   spawn → running: one `Agent {run_in_background}` call per main turn, timed from the call's
//     tool_start to the child's run_start (its loop is running); the median over `spawns`.
//   memory: `children` background children started in one message, each waiting on its model
//     call; RSS and JS heap after a GC, minus the same before them (the baseline), per child.
//
//   node --expose-gc bench/lib/background-worker.mjs '{"spawns":100,"children":1000}'
import { performance } from 'node:perf_hooks';
import { query } from '../../dist/index.js';
import { scriptedModel } from '../../dist/testing.js';

const spec = JSON.parse(process.argv[2] ?? '{}');
const spawns = spec.spawns ?? 100;
const children = spec.children ?? 1000;
const emit = (value) => process.stdout.write(`RESULT ${JSON.stringify(value)}\n`);

/**
 * The main agent answers from a script; every child's model call waits until it is aborted and
 * keeps nothing (the scripted model keeps every call it gets, for tests, which would count here).
 */
function benchModel(main) {
  const isChild = (options) => options.prompt.some((message) => message.role === 'system');
  const wait = (options) =>
    new Promise((_, reject) => {
      const { abortSignal } = options;
      abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
    });
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'bench',
    supportedUrls: {},
    doGenerate: (options) => (isChild(options) ? wait(options) : main.doGenerate(options)),
    doStream: (options) => (isChild(options) ? wait(options) : main.doStream(options)),
  };
}

const agentCall = (prompt) => ({
  name: 'Agent',
  input: { description: 'bench child', prompt, run_in_background: true },
});

/** A main agent that starts `count` children one turn at a time; each child then waits. */
async function spawnToRunning(count) {
  const turns = [{ match: { prompt: 'SPAWN-BENCH' }, toolCalls: [agentCall('CHILD')] }];
  for (let i = 1; i < count; i++) {
    turns.push({ match: { lastToolResult: '"task_id"' }, toolCalls: [agentCall('CHILD')] });
  }
  turns.push({ match: { lastToolResult: '"task_id"' }, text: 'started them all' });
  const called = new Map();
  const samples = [];
  const run = query({
    prompt: 'SPAWN-BENCH',
    options: {
      model: benchModel(scriptedModel(turns)),
      tools: [],
      maxParallel: count + 1,
      waitForBackground: false,
      stallTimeoutMs: Number.POSITIVE_INFINITY,
      onEvent(event) {
        if (event.type === 'tool_start' && event.toolName === 'Agent') {
          called.set(event.agentId, performance.now());
        } else if (event.type === 'run_start' && event.depth === 1) {
          samples.push(performance.now() - called.get(event.parentId));
        }
      },
    },
  });
  for await (const _event of run);
  await run.tasks.shutdown();
  if (samples.length !== count) throw new Error(`${samples.length} of ${count} children started`);
  return samples;
}

/** `count` children in flight at once: RSS and heap beyond what the process had before. */
async function inFlight(count) {
  const turns = [
    {
      match: { prompt: 'FANOUT-BENCH' },
      toolCalls: Array.from({ length: count }, () => agentCall('WAITER')),
    },
    { match: { lastToolResult: '"task_id"' }, text: 'all started' },
  ];
  let waiting = 0;
  let allWaiting;
  const ready = new Promise((resolve) => {
    allWaiting = resolve;
  });
  globalThis.gc();
  const before = { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  const run = query({
    prompt: 'FANOUT-BENCH',
    options: {
      model: benchModel(scriptedModel(turns)),
      tools: [],
      maxParallel: count,
      waitForBackground: false,
      stallTimeoutMs: Number.POSITIVE_INFINITY,
      onEvent(event) {
        if (event.type === 'message_start' && event.depth === 1 && ++waiting === count)
          allWaiting();
      },
    },
  });
  for await (const _event of run);
  await ready;
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  globalThis.gc();
  const after = { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  const running = run.tasks.list().filter((task) => task.status === 'running').length;
  await run.tasks.shutdown();
  if (running !== count) throw new Error(`${running} of ${count} children were running`);
  return {
    rssPerChildKiB: (after.rss - before.rss) / 1024 / count,
    heapPerChildKiB: (after.heap - before.heap) / 1024 / count,
    rssBeforeMiB: before.rss / 2 ** 20,
    rssAfterMiB: after.rss / 2 ** 20,
  };
}

try {
  await spawnToRunning(10); // warm-up: the modules and the JIT
  await inFlight(20);
  const samples = (await spawnToRunning(spawns)).sort((a, b) => a - b);
  const memory = await inFlight(children);
  emit({
    ok: true,
    spawns,
    children,
    spawnToRunningMedianMs: samples[samples.length >> 1],
    spawnToRunningP90Ms: samples[Math.floor(samples.length * 0.9)],
    ...memory,
  });
  process.exit(0);
} catch (error) {
  emit({ ok: false, error: String(error?.stack ?? error).slice(0, 2000) });
  process.exit(2);
}
