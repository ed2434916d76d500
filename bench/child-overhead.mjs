#!/usr/bin/env node
// warren's own cost per child, apart from the provider and HTTP: a parent starts N children in
// one turn through the Agent tool, each child answers at once (one model request), then the
// parent answers; in-process, against a model that answers on the next turn of the event loop.
// Reports CPU µs per child (everything from the Agent call to its tool result, the child's one
// request included) and the live JS heap per child while all N wait for their first reply (held
// until the last has asked, then measured after a full collection). Not part of `npm run bench`;
// run after `npm run build`:
//   node --expose-gc bench/child-overhead.mjs [children=1000] [queries=8] [warm-up queries=2]
import { query } from '../dist/index.js';
import { instantModel, lookupTool } from './lib/instant-model.mjs';

const [children, queries, warmups] = process.argv.slice(2).map(Number);
const N = children || 1000;
const QUERIES = queries || 8;
const WARMUPS = warmups || 2;
if (!globalThis.gc) {
  console.error('run with --expose-gc: node --expose-gc bench/child-overhead.mjs');
  process.exit(2);
}

let nextId = 0;
const agentCall = (i) => ({
  type: 'tool-call',
  toolCallId: `call_${nextId++}`,
  toolName: 'Agent',
  input: JSON.stringify({ subagent_type: 'child', description: `task ${i}`, prompt: `go ${i}` }),
});

/** While measuring the heap: the children's first replies, held until all N have asked. */
let holding;
const held = [];
let heapInFlight;

function reply(prompt, tools) {
  if (tools?.some((tool) => tool.name === 'Agent')) {
    if (prompt.at(-1).role === 'tool') return [{ type: 'text', text: 'PARENT_DONE' }];
    return Array.from({ length: N }, (_, i) => agentCall(i));
  }
  return [{ type: 'text', text: 'CHILD_DONE' }];
}

const model = instantModel(async (options) => {
  const isChild = !options.tools?.some((tool) => tool.name === 'Agent');
  if (holding && isChild) {
    await new Promise((resolve) => {
      held.push(resolve);
      if (held.length === N) setImmediate(releaseHeld);
    });
  } else {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return reply(options.prompt, options.tools);
});

function releaseHeld() {
  globalThis.gc();
  heapInFlight = process.memoryUsage().heapUsed;
  for (const resolve of held.splice(0)) resolve();
}

async function once() {
  const options = {
    model,
    systemPrompt: 'ROLE:parent',
    tools: [lookupTool],
    agents: { child: { description: 'child', prompt: 'ROLE:child', tools: ['lookup'] } },
    stream: false,
    maxDepth: 1,
    maxParallel: N,
    retry: { maxRetries: 0 },
  };
  let done = 0;
  for await (const event of query({ prompt: 'Research', options })) {
    if (event.type !== 'result') continue;
    if (event.isError) throw new Error(`the run ended ${event.status}: ${event.error}`);
    if (event.depth === 1) done++;
  }
  if (done !== N) throw new Error(`${done} of ${N} children finished`);
}

for (let i = 0; i < WARMUPS; i++) await once();
const perChild = [];
for (let i = 0; i < QUERIES; i++) {
  globalThis.gc();
  const before = process.cpuUsage();
  await once();
  const used = process.cpuUsage(before);
  perChild.push((used.user + used.system) / N);
}
perChild.sort((a, b) => a - b);

globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
holding = true;
await once();
holding = false;

console.log(
  `${perChild[Math.floor(perChild.length / 2)].toFixed(0)} µs CPU per child (median of ${QUERIES} queries of ${N} children; ` +
    `range ${perChild[0].toFixed(0)}–${perChild.at(-1).toFixed(0)})`,
);
console.log(
  `${((heapInFlight - heapBefore) / N / 1024).toFixed(1)} KiB of live JS heap per child in flight`,
);
