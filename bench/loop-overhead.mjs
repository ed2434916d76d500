#!/usr/bin/env node
// warren's own CPU per model request, apart from the provider and HTTP: the turn scenario's job
// (a parent starts one child through the Agent tool; the child calls `lookup` K−1 times, then
// answers) run in-process against a model that answers at once. The HTTP bench cannot resolve
// a few µs in ~1,300; this can. Not part of `npm run bench`; run after `npm run build`:
//   node --expose-gc bench/loop-overhead.mjs [warm-up queries=20] [queries=100] [K=50]
import { query } from '../dist/index.js';
import { instantModel, lookupTool } from './lib/instant-model.mjs';

const [warmups, queries, k] = process.argv.slice(2).map(Number);
const WARMUPS = warmups || 20;
const QUERIES = queries || 100;
const K = k || 50;

let requests = 0;
let nextId = 0;
const call = (toolName, input) => ({
  type: 'tool-call',
  toolCallId: `call_${nextId++}`,
  toolName,
  input: JSON.stringify(input),
});

/**
 * The parent starts one child, then answers; the child looks up K−1 times, then answers. Each
 * lookup asks for another key: the same call with the same result is a loop (no-progress).
 */
function reply(prompt, tools) {
  const last = prompt[prompt.length - 1];
  if (tools?.some((tool) => tool.name === 'Agent')) {
    if (last.role === 'tool') return [{ type: 'text', text: 'PARENT_DONE' }];
    return [call('Agent', { subagent_type: 'child', description: 'one task', prompt: 'go' })];
  }
  const done = prompt.filter((message) => message.role === 'tool').length;
  return done >= K - 1
    ? [{ type: 'text', text: 'CHILD_DONE' }]
    : [call('lookup', { key: `k${done}` })];
}

const model = instantModel((options) => {
  requests++;
  return reply(options.prompt, options.tools);
});

async function once() {
  const options = {
    model,
    systemPrompt: 'ROLE:parent',
    tools: [lookupTool],
    agents: {
      child: { description: 'child', prompt: 'ROLE:child', tools: ['lookup'], maxTurns: K + 2 },
    },
    stream: false,
    maxDepth: 1,
    retry: { maxRetries: 0 },
  };
  for await (const event of query({ prompt: 'Research', options })) {
    if (event.type === 'result' && event.depth === 0 && event.isError) {
      throw new Error(`the run ended ${event.status}: ${event.error}`);
    }
  }
}

for (let i = 0; i < WARMUPS; i++) await once();
requests = 0;
globalThis.gc?.();
const before = process.cpuUsage();
for (let i = 0; i < QUERIES; i++) await once();
const used = process.cpuUsage(before);
const cpuUs = used.user + used.system;
console.log(
  `${(cpuUs / requests).toFixed(1)} µs CPU per request (${requests} requests, ` +
    `${(cpuUs / QUERIES / 1000).toFixed(2)} ms per query)`,
);
