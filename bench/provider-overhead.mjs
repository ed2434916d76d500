#!/usr/bin/env node
// warren's own CPU per request with the real AI SDK provider but no network: the turn scenario
// (a parent starts one child; the child looks up K−1 times, then answers) through query(),
// beside the provider-only loop, both on the openai-compatible provider whose fetch answers
// in-process. The difference is warren's share with the provider's real inputs and outputs,
// without the loopback server's noise. Main-thread CPU, interleaved runs. Not part of
// `npm run bench`; run after `npm run build`:
//   node bench/provider-overhead.mjs [runs=80] [warm-up runs=20]
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { query } from '../dist/index.js';
import { lookupTool } from './lib/instant-model.mjs';

const [runsArg, warmArg] = process.argv.slice(2).map(Number);
const RUNS = runsArg || 80;
const WARMUPS = warmArg || 20;
const K = 50;
let nextId = 0;

const call = (name, args) => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    {
      id: `call_${nextId++}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    },
  ],
});

/** The parent starts one child, then answers; the child looks up K−1 keys, then answers. */
function replyTo(body) {
  const done = body.messages.filter((message) => message.role === 'tool').length;
  if (body.tools?.some((tool) => tool.function.name === 'Agent')) {
    if (done > 0) return { role: 'assistant', content: 'PARENT_DONE' };
    return call('Agent', { subagent_type: 'child', description: 'one task', prompt: 'go' });
  }
  if (done >= K - 1) return { role: 'assistant', content: 'CHILD_DONE' };
  return call('lookup', { key: `k${done}` });
}

async function inProcessFetch(_url, init) {
  const message = replyTo(JSON.parse(init.body));
  const text = JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'mock-model',
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  return new Response(text, {
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    },
  });
}

const model = createOpenAICompatible({
  name: 'openai-compatible',
  baseURL: 'http://in-process/v1',
  apiKey: 'key',
  includeUsage: true,
  fetch: inProcessFetch,
}).chatModel('mock-model');

const LOOKUP_SPEC = {
  type: 'function',
  name: 'lookup',
  description: 'Look up a key.',
  inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};

/** The provider-only loop: the child's K requests, as the bench's provider-loop adapter makes them. */
async function providerLoop() {
  const prompt = [
    { role: 'system', content: 'ROLE:child' },
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
  ];
  for (;;) {
    const reply = await model.doGenerate({
      prompt,
      tools: [LOOKUP_SPEC],
      toolChoice: { type: 'auto' },
    });
    const calls = reply.content
      .filter((part) => part.type === 'tool-call')
      .map((part) => ({ ...part, input: JSON.parse(part.input) }));
    prompt.push({
      role: 'assistant',
      content: [...reply.content.filter((p) => p.type === 'text'), ...calls],
    });
    if (calls.length === 0) return K;
    prompt.push({
      role: 'tool',
      content: calls.map((c) => ({
        type: 'tool-result',
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        output: { type: 'text', value: 'value: 42' },
      })),
    });
  }
}

async function warren() {
  const options = {
    model,
    systemPrompt: 'ROLE:parent',
    tools: [lookupTool],
    agents: {
      child: { description: 'child', prompt: 'ROLE:child', tools: ['lookup'], maxTurns: K + 2 },
    },
    maxDepth: 1,
    stream: false,
    retry: { maxRetries: 0 },
  };
  for await (const event of query({ prompt: 'Research', options })) {
    if (event.type === 'result' && event.depth === 0 && event.isError) {
      throw new Error(`the run ended ${event.status}: ${event.error}`);
    }
  }
  return K + 2;
}

const cpu = () => {
  const used = process.threadCpuUsage();
  return used.user + used.system;
};
const totals = { 'provider-only loop': [0, 0], warren: [0, 0] };
for (let run = 0; run < WARMUPS + RUNS; run++) {
  for (const [name, job] of [
    ['provider-only loop', providerLoop],
    ['warren', warren],
  ]) {
    const before = cpu();
    const requests = await job();
    if (run < WARMUPS) continue;
    totals[name][0] += cpu() - before;
    totals[name][1] += requests;
  }
}
for (const [name, [us, requests]] of Object.entries(totals)) {
  console.log(`${name}: ${(us / requests).toFixed(0)} µs main-thread CPU per request`);
}
