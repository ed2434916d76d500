// The prompt-cache scenario, run as its own process against the mock's Anthropic endpoint:
// warren's CLI prompt and built-in tools for a parent that reads three files, then starts ten
// sibling children of one definition and one child forked from its conversation, all in one
// message. The mock keeps Anthropic's cache (prefix up to each breakpoint, 20-block look-back,
// 1024-token minimum, 5-minute lifetime, readable once the writing response has begun) and, fed
// the same requests, two more: every agent reads only its own entries (Claude Code's documented
// behaviour: children never read their parent's cache, and siblings launched together all send
// their first request before any has written), and the most any breakpoint placement could read
// of these requests. Caching off reads nothing. Prints `RESULT <json>` like the workers.
//
//   node bench/lib/cache-share.mjs '{"mockURL": "http://127.0.0.1:<port>", "n": 10, "latencyMs": 100}'
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { writeExplorationFiles } from './exploration-files.mjs';
import { CACHE_SIBLING_DESCRIPTION, CACHE_SIBLING_PROMPT } from './workload.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { query, resolveModel } = await import(new URL('index.js', dist));
const { builtinTools } = await import(new URL('tools.js', dist));
const { mainSystemPrompt } = await import(new URL('prompt/system-prompt.js', dist));

const spec = JSON.parse(process.argv[2] ?? '{}');
const { mockURL, n = 10, latencyMs = 100 } = spec;

/** Input tokens at Anthropic's prices, relative to sending them all uncached. */
const READ_PRICE = 0.1;
const WRITE_PRICE = 1.25;

async function mock(method, route, body) {
  const res = await fetch(`${mockURL}${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`mock ${method} ${route}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

const sum = (rows, variant, key) =>
  rows.reduce((total, row) => total + row.variants[variant][key], 0);
const share = (rows, variant) => sum(rows, variant, 'read') / sum(rows, variant, 'total');
const cost = (rows, variant) =>
  (sum(rows, variant, 'input') +
    WRITE_PRICE * sum(rows, variant, 'write') +
    READ_PRICE * sum(rows, variant, 'read')) /
  sum(rows, variant, 'total');

function figures(rows, variant) {
  const parent = rows.filter((row) => row.role === 'cacheparent');
  const siblings = rows
    .filter((row) => row.role === 'sibling')
    .sort((a, b) => a.firstRequestMs - b.firstRequestMs);
  const fork = rows.filter((row) => row.role === 'fork');
  const children = [...siblings, ...fork];
  return {
    siblingsAfterFirstShare: share(siblings.slice(1), variant),
    firstSiblingShare: share(siblings.slice(0, 1), variant),
    forkShare: share(fork, variant),
    childrenShare: share(children, variant),
    parentShare: share(parent, variant),
    runShare: share(rows, variant),
    childrenCost: cost(children, variant),
    runCost: cost(rows, variant),
    childrenInputTokens: sum(children, variant, 'total'),
    runInputTokens: sum(rows, variant, 'total'),
  };
}

const { dir, files } = writeExplorationFiles();
try {
  await mock('POST', '/config', { files, n, latencyMs, subagentType: 'sibling' });
  await mock('POST', '/reset');
  const model = await resolveModel('anthropic:claude-sonnet-4-5', {
    env: { ANTHROPIC_API_KEY: 'mock-key', ANTHROPIC_BASE_URL: mockURL },
  });
  const started = performance.now();
  const results = [];
  for await (const event of query({
    prompt: 'Read the first three source files, then have every other file summarised.',
    options: {
      model,
      systemPrompt: `${mainSystemPrompt({ cwd: dir, subagents: true })}\n\nROLE:cacheparent`,
      tools: builtinTools(),
      cwd: dir,
      maxParallel: n + 1,
      retry: { maxRetries: 0 },
      agents: {
        sibling: {
          description: CACHE_SIBLING_DESCRIPTION,
          prompt: CACHE_SIBLING_PROMPT,
          tools: ['Read', 'Grep', 'Glob'],
        },
      },
    },
  })) {
    if (event.type === 'result') results.push(event);
  }
  const wallMs = performance.now() - started;
  const main = results.find((result) => result.depth === 0);
  if (main?.status !== 'completed')
    throw new Error(`the run ended ${main?.status}: ${main?.error}`);
  if (main.result !== `CACHEPARENT_DONE children=${n + 1}`) {
    throw new Error(`unexpected final answer: ${JSON.stringify(main.result)}`);
  }
  const stats = await mock('GET', '/stats');
  if (stats.errors) throw new Error(`mock errors: ${stats.errorSamples.join(' | ')}`);
  const rows = stats.cacheAgents;
  // warren's own accounting (what agents[] reports) must be the mock's Anthropic variant.
  const reported = results.reduce((total, result) => total + result.usage.cacheReadInputTokens, 0);
  const served = sum(rows, 'anthropic', 'read');
  if (reported !== served) {
    throw new Error(`warren reported ${reported} cache-read tokens, the mock served ${served}`);
  }
  const firsts = rows.filter((row) => row.role === 'sibling').map((row) => row.firstRequestMs);
  const sample = {
    wallMs,
    requests: stats.requests,
    agents: rows.length,
    siblingStartSpreadMs: Math.max(...firsts) - Math.min(...firsts),
    warren: figures(rows, 'anthropic'),
    claudeCode: figures(rows, 'private'),
    bound: figures(rows, 'bound'),
  };
  console.log(`RESULT ${JSON.stringify({ ok: true, samples: [sample] })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
