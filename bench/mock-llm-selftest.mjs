// Self-checks of the benchmark's mock LLM: that it scripts each role as the adapters expect and
// speaks the OpenAI wire format. Not part of `npm test`; run: node --test bench/mock-llm-selftest.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';

let server;
let url;

before(async () => {
  server = spawn(process.execPath, [path.join(import.meta.dirname, 'mock-llm.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise((resolve, reject) => {
    let buffer = '';
    server.stdout.on('data', (chunk) => {
      buffer += chunk;
      const listening = /MOCK_LLM_LISTENING (\S+)/.exec(buffer);
      if (listening) resolve(listening[1]);
    });
    server.on('exit', reject);
  });
});
after(() => server.kill());

const post = (route, body) =>
  fetch(url + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const complete = async (body) => (await post('/v1/chat/completions', body)).json();
const stats = async () => (await fetch(`${url}/stats`)).json();

const tool = (name, properties, required = Object.keys(properties)) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties, required } },
});
const agentTool = tool(
  'Agent',
  {
    description: { type: 'string' },
    prompt: { type: 'string' },
    subagent_type: { type: 'string' },
  },
  ['description', 'prompt'],
);
const lookupTool = tool('lookup', { key: { type: 'string' } });

test('a parent calls the Agent tool N times, then counts the children that finished', async () => {
  await post('/config', { n: 3, k: 2 });
  await post('/reset', {});
  const messages = [
    { role: 'system', content: 'ROLE:parent coordinate' },
    { role: 'user', content: 'go' },
  ];
  const first = await complete({ model: 'm', messages, tools: [agentTool] });
  const calls = first.choices[0].message.tool_calls;
  assert.equal(calls.length, 3);
  const args = calls.map((call) => JSON.parse(call.function.arguments));
  assert.deepEqual(args[1], {
    description: 'task-1',
    prompt: 'task-1: investigate topic #1 and report',
    subagent_type: 'child',
  });
  messages.push(first.choices[0].message);
  for (const call of calls) {
    const content = call === calls[0] ? 'failed' : 'CHILD_DONE lookups=1';
    messages.push({ role: 'tool', tool_call_id: call.id, content });
  }
  const last = await complete({ model: 'm', messages, tools: [agentTool] });
  assert.equal(last.choices[0].message.content, 'PARENT_DONE results=3 ok=2');
  assert.equal((await stats()).requests, 2);
});

test('a child looks up K-1 times, then reports its task', async () => {
  await post('/config', { k: 3 });
  const messages = [
    { role: 'system', content: 'ROLE:child research' },
    { role: 'user', content: 'task-7' },
  ];
  for (let turn = 0; turn < 2; turn++) {
    const reply = await complete({ model: 'm', messages, tools: [lookupTool] });
    const [call] = reply.choices[0].message.tool_calls;
    assert.deepEqual(JSON.parse(call.function.arguments), { key: `key-${turn}` });
    messages.push(reply.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'v' });
  }
  const reply = await complete({ model: 'm', messages, tools: [lookupTool] });
  assert.equal(reply.choices[0].message.content, 'CHILD_DONE lookups=2 task=task-7');
});

test('a streamed reply carries tool-call deltas, a usage chunk and [DONE]', async () => {
  await post('/config', { n: 2, chunks: 3 });
  await post('/reset', {});
  const res = await post('/v1/chat/completions', {
    model: 'm',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'system', content: 'ROLE:parent' }],
    tools: [agentTool],
  });
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  const frames = (await res.text()).split('\n\n').filter(Boolean);
  assert.equal(frames.at(-1), 'data: [DONE]');
  const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice('data: '.length)));
  const args = ['', ''];
  for (const chunk of chunks) {
    for (const part of chunk.choices[0]?.delta.tool_calls ?? []) {
      args[part.index] += part.function.arguments ?? '';
    }
  }
  assert.equal(JSON.parse(args[1]).description, 'task-1');
  assert.equal(chunks.at(-2).choices[0].finish_reason, 'tool_calls');
  assert.deepEqual(chunks.at(-1).choices, []);
  assert.ok(chunks.at(-1).usage.prompt_tokens > 0);
  const after = await stats();
  assert.equal(after.streamed, 1);
  assert.equal(after.maxInFlight, 1);
});

test('an explore child reads the files of its task and summarises each', async () => {
  const messages = [
    { role: 'system', content: 'You are a file-search specialist.' },
    { role: 'user', content: 'EXPLORE:\n/p/a.ts\n/p/b.ts' },
  ];
  const tools = [tool('Read', { file_path: { type: 'string' } })];
  const reads = (await complete({ model: 'm', messages, tools })).choices[0].message;
  assert.deepEqual(
    reads.tool_calls.map((call) => JSON.parse(call.function.arguments).file_path),
    ['/p/a.ts', '/p/b.ts'],
  );
  messages.push(reads);
  for (const [i, call] of reads.tool_calls.entries()) {
    messages.push({ role: 'tool', tool_call_id: call.id, content: `1\tBENCHFILE file ${i}` });
  }
  const report = (await complete({ model: 'm', messages, tools })).choices[0].message.content;
  assert.equal(report, 'EXPLORE_DONE files=2 ok=2\n- file 0\n- file 1');
});

test('a request the script cannot answer is an error the stats count', async () => {
  await post('/reset', {});
  const res = await post('/v1/chat/completions', {
    model: 'm',
    messages: [{ role: 'system', content: 'ROLE:child' }],
    tools: [],
  });
  assert.equal(res.status, 400);
  const after = await stats();
  assert.equal(after.errors, 1);
  assert.match(after.errorSamples[0], /no 'lookup' tool/);
});
