// The workflow scenario, run as its own process: the CPU a workflow adds per item apart from its
// agents (a `items`-item run at `concurrency` whose runner answers at once, so what is measured
// is the sandbox, the journal and the gate), then a resume of it with all but 1 % of the items
// done: the time to its first new item. Then, against the mock's Anthropic endpoint (its cache
// kept as Anthropic documents it), a real Workflow call of `cacheItems` items of one definition:
// the share of the items' input tokens read from the prompt cache after the first item.
// Prints `RESULT <json>` like the workers do.
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { writeExplorationFiles } from './exploration-files.mjs';
import { CACHE_SIBLING_DESCRIPTION, CACHE_SIBLING_PROMPT } from './workload.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { runWorkflow } = await import(new URL('workflows/workflow-engine.js', dist));
const { WorkflowStore } = await import(new URL('workflows/workflow-store.js', dist));

const {
  items = 1000,
  concurrency = 100,
  mockURL,
  cacheItems = 10,
  latencyMs = 100,
} = JSON.parse(process.argv[2] ?? '{}');
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
    ...(mockURL ? await cacheShare() : {}),
  };
  console.log(`RESULT ${JSON.stringify({ ok: true, samples: [sample] })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
}

async function mock(method, route, body) {
  const res = await fetch(`${mockURL}${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`mock ${method} ${route}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * A Workflow call whose `cacheItems` items (the cache scenario's siblings: one definition, an
 * exploring task each) run against the mock's Anthropic cache; what the items after the first
 * read from the cache, of all their input tokens.
 */
async function cacheShare() {
  const { query, resolveModel } = await import(new URL('index.js', dist));
  const { builtinTools } = await import(new URL('tools.js', dist));
  const { mainSystemPrompt } = await import(new URL('prompt/system-prompt.js', dist));
  const { dir, files } = writeExplorationFiles();
  try {
    await mock('POST', '/config', { files, n: cacheItems, latencyMs });
    await mock('POST', '/reset');
    const model = await resolveModel('anthropic:claude-sonnet-4-5', {
      env: { ANTHROPIC_API_KEY: 'mock-key', ANTHROPIC_BASE_URL: mockURL },
    });
    let main;
    for await (const event of query({
      prompt: 'Have every share of the source files summarised.',
      options: {
        model,
        systemPrompt: `${mainSystemPrompt({ cwd: dir, subagents: true })}\n\nROLE:wfparent`,
        tools: builtinTools(),
        cwd: dir,
        maxParallel: cacheItems + 1,
        retry: { maxRetries: 0 },
        workflows: { wait: true },
        agents: {
          sibling: {
            description: CACHE_SIBLING_DESCRIPTION,
            prompt: CACHE_SIBLING_PROMPT,
            tools: ['Read', 'Grep', 'Glob'],
          },
        },
      },
    })) {
      if (event.type === 'result' && event.depth === 0) main = event;
    }
    if (main?.result !== 'WFPARENT_DONE') {
      throw new Error(
        `the workflow's caller ended ${main?.status}: ${main?.error ?? main?.result}`,
      );
    }
    const stats = await mock('GET', '/stats');
    if (stats.errors) throw new Error(`mock errors: ${stats.errorSamples.join(' | ')}`);
    const siblings = stats.cacheAgents
      .filter((row) => row.role === 'sibling')
      .sort((a, b) => a.firstRequestMs - b.firstRequestMs);
    if (siblings.length !== cacheItems) {
      throw new Error(`${siblings.length} items reached the model, not ${cacheItems}`);
    }
    const sum = (rows, key) => rows.reduce((total, row) => total + row.variants.anthropic[key], 0);
    const after = siblings.slice(1);
    return {
      cacheItems,
      itemsAfterFirstCacheShare: sum(after, 'read') / sum(after, 'total'),
      firstItemCacheShare: sum(siblings.slice(0, 1), 'read') / sum(siblings.slice(0, 1), 'total'),
      itemStartSpreadMs:
        Math.max(...siblings.map((row) => row.firstRequestMs)) -
        Math.min(...siblings.map((row) => row.firstRequestMs)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
