// One measurement in a fresh process: import an adapter, warm it up, run its job against the
// mock LLM, check the outcome, and print one line `RESULT <json>` on stdout for the driver.
// Memory (sampleRss) is sampled every 5 ms after a forced GC: peak RSS and peak JS heap.
//
//   node --expose-gc bench/lib/worker.mjs '<json spec>'
// spec: { adapter, mockURL, job: 'fanout' | 'explore', stream, alwaysStreams, n, k, latencyMs,
//         warmup: [{ n, k, latencyMs }], iterations, sampleRss, timeoutMs }
import { rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { writeExplorationFiles } from './exploration-files.mjs';
import { checkFinalAnswer, EXPLORE_CHILDREN } from './workload.mjs';

const spec = JSON.parse(process.argv[2]);
let phase = 'import';
let finished = false;

const emit = (value) => process.stdout.write(`RESULT ${JSON.stringify(value)}\n`);
const fail = (error, code) => {
  finished = true;
  emit({ ok: false, phase, error: String(error?.stack ?? error).slice(0, 2000) });
  process.exit(code);
};
setTimeout(() => fail(`timeout after ${spec.timeoutMs} ms`, 3), spec.timeoutMs).unref();
// A run whose promise never settles drains the event loop instead of finishing.
process.on('beforeExit', () => {
  if (!finished)
    fail('the event loop drained before the run finished (a promise never settled)', 4);
});

async function mock(method, route, body) {
  const res = await fetch(`${spec.mockURL}${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`mock ${method} ${route}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

function contextFor(cfg) {
  return {
    baseURL: `${spec.mockURL}/v1`,
    apiKey: 'mock-key',
    model: 'mock-model',
    stream: spec.stream === true,
    n: cfg.n,
    k: cfg.k,
    childMaxTurns: cfg.k + 2,
    parentMaxTurns: 4,
  };
}

/** What must hold after every fan-out run; a list of what did not. */
function fanoutProblems(output, stats, cfg) {
  const problems = [];
  const answer = checkFinalAnswer(output, { results: cfg.n });
  if (answer) problems.push(answer);
  const expected = 2 + cfg.n * cfg.k;
  if (stats.requests !== expected) {
    problems.push(`the mock saw ${stats.requests} model requests, expected ${expected}`);
  }
  if (stats.errors)
    problems.push(`the mock reported ${stats.errors} errors: ${stats.errorSamples.join(' | ')}`);
  if (spec.stream && stats.streamed !== stats.requests) {
    problems.push(`only ${stats.streamed} of ${stats.requests} requests streamed`);
  }
  if (!spec.stream && !spec.alwaysStreams && stats.streamed !== 0) {
    problems.push(`${stats.streamed} of ${stats.requests} requests streamed in JSON mode`);
  }
  return problems;
}

async function fanoutRun(run, cfg, measure) {
  await mock('POST', '/config', { n: cfg.n, k: cfg.k, latencyMs: cfg.latencyMs, chunks: 4 });
  await mock('POST', '/reset');
  globalThis.gc?.();
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  let peakHeap = getHeapStatistics().used_heap_size;
  const sampler =
    measure && spec.sampleRss
      ? setInterval(() => {
          peakRss = Math.max(peakRss, process.memoryUsage.rss());
          peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
        }, 5)
      : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let output;
  try {
    output = await run(contextFor(cfg));
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const stats = await mock('GET', '/stats');
  const problems = fanoutProblems(output, stats, cfg);
  if (!measure && problems.length > 0) throw new Error(`warm-up run: ${problems.join('; ')}`);
  return {
    ok: problems.length === 0,
    error: problems.length > 0 ? problems.join('; ') : undefined,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    requests: stats.requests,
    streamed: stats.streamed,
    maxInFlight: stats.maxInFlight,
    connections: stats.connections,
    childLaunchSpreadMs: stats.childFirstTurn?.spreadMs ?? null,
    serverCpuMs: stats.serverCpuMs,
    rssBeforeMiB: rssBefore / 2 ** 20,
    peakRssMiB: spec.sampleRss ? peakRss / 2 ** 20 : null,
    peakHeapMiB: spec.sampleRss ? peakHeap / 2 ** 20 : null,
    output: String(output).slice(0, 200),
  };
}

/** The exploration job twice: one agent reading every file, then a parent delegating them. */
async function exploreRun(explore) {
  const { dir, files } = writeExplorationFiles();
  try {
    await mock('POST', '/config', { latencyMs: 0, files, exploreChildren: EXPLORE_CHILDREN });
    const sides = {};
    for (const [mode, role, marker, results, requests] of [
      ['single', 'reader', 'READER_DONE', files.length, 2],
      ['delegated', 'delegator', 'DELEGATOR_DONE', EXPLORE_CHILDREN, 2 + 2 * EXPLORE_CHILDREN],
    ]) {
      await mock('POST', '/reset');
      const t0 = performance.now();
      const output = await explore({ ...contextFor({ n: 0, k: 0 }), mode, dir });
      const wallMs = performance.now() - t0;
      const stats = await mock('GET', '/stats');
      const problems = [checkFinalAnswer(output, { marker, results })];
      if (stats.requests !== requests) {
        problems.push(`the mock saw ${stats.requests} model requests, expected ${requests}`);
      }
      if (stats.errors)
        problems.push(`the mock reported errors: ${stats.errorSamples.join(' | ')}`);
      const error = problems.filter(Boolean).join('; ');
      if (error) throw new Error(`${mode}: ${error}`);
      sides[mode] = {
        wallMs,
        requests: stats.requests,
        parentTokens: stats.lastByRole[role].messageTokens,
        totalMessageTokens: stats.totalMessageTokens,
      };
    }
    return {
      ok: true,
      files: files.length,
      single: sides.single,
      delegated: sides.delegated,
      contextRatio: sides.delegated.parentTokens / sides.single.parentTokens,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const adapter = await import(pathToFileURL(path.resolve(spec.adapter)).href);
  const importMs = performance.now() - t0;
  const { user, system } = process.cpuUsage(cpu0);
  const importCpuMs = (user + system) / 1000;
  const samples = [];
  if (spec.job === 'explore') {
    phase = 'measure';
    samples.push(await exploreRun(adapter.explore));
  } else {
    phase = 'warmup';
    for (const cfg of spec.warmup) await fanoutRun(adapter.default, cfg, false);
    phase = 'measure';
    const cfg = { n: spec.n, k: spec.k, latencyMs: spec.latencyMs };
    for (let i = 0; i < spec.iterations; i++) {
      const sample = await fanoutRun(adapter.default, cfg, true);
      samples.push(sample);
      if (!sample.ok) break;
    }
  }
  finished = true;
  emit({
    ok: samples.every((sample) => sample.ok),
    error: samples.find((sample) => !sample.ok)?.error,
    importMs,
    importCpuMs,
    samples,
  });
  process.exit(0);
} catch (error) {
  fail(error, 2);
}
