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

// ---------------------------------------------------------------- Anthropic wire and its cache

const ephemeral = { type: 'ephemeral' };
const readTool = {
  name: 'Read',
  description: 'reads a file '.repeat(400),
  input_schema: { type: 'object', properties: { file_path: { type: 'string' } } },
};
/** A sibling's request: a long cached system prompt, its task, and earlier turns if given. */
const siblingRequest = (task, turns = [], extra = {}) => ({
  model: 'm',
  max_tokens: 100,
  tools: [{ ...readTool, cache_control: ephemeral }],
  system: [
    { type: 'text', text: `ROLE:sibling ${'be brief. '.repeat(400)}`, cache_control: ephemeral },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: task, cache_control: ephemeral }] },
    ...turns,
  ],
  ...extra,
});
const message = async (body) => (await post('/v1/messages', body)).json();
const cacheRow = async (task) =>
  (await stats()).cacheAgents.find((row) => row.task === task).variants.anthropic;

test('Anthropic wire: a second request with the same prefix reads it; the reply says so in usage', async () => {
  await post('/config', {
    files: ['/p/a.ts', '/p/b.ts', '/p/c.ts', '/p/d.ts'],
    latencyMs: 0,
    cacheTtlMs: 300_000,
  });
  await post('/reset', {});
  const first = await message(siblingRequest('SIBLING task-0: go'));
  assert.equal(first.type, 'message');
  assert.deepEqual(
    first.content.map((block) => [block.type, block.name]),
    [['tool_use', 'Glob']],
  );
  assert.equal(first.usage.cache_read_input_tokens, 0);
  assert.ok(first.usage.cache_creation_input_tokens > 2000);
  const second = await message(siblingRequest('SIBLING task-1: go'));
  // Tools and system prompt come from the cache; only the new task is written.
  assert.ok(second.usage.cache_read_input_tokens > 2000);
  assert.ok(second.usage.cache_creation_input_tokens < 20);
  assert.equal(
    second.usage.cache_read_input_tokens + second.usage.cache_creation_input_tokens,
    first.usage.cache_creation_input_tokens,
  );
  assert.equal(second.usage.input_tokens, 0);
  const row = await cacheRow('SIBLING task-1: go');
  assert.equal(row.read, second.usage.cache_read_input_tokens);
});

test('Anthropic wire: streams message_start … message_stop with the cache usage', async () => {
  await post('/reset', {});
  const res = await post(
    '/v1/messages',
    siblingRequest('SIBLING task-2: go', [], { stream: true }),
  );
  const events = (await res.text())
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => frame.split('\n')[0].slice('event: '.length));
  assert.deepEqual(events, [
    'message_start',
    'content_block_start',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
});

test('Anthropic cache: an entry is readable only once the response that writes it has begun', async () => {
  await post('/config', { latencyMs: 200 });
  await post('/reset', {});
  const [a, b] = await Promise.all([
    message(siblingRequest('SIBLING task-3: go')),
    message(siblingRequest('SIBLING task-4: go')),
  ]);
  assert.equal(a.usage.cache_read_input_tokens + b.usage.cache_read_input_tokens, 0);
  await post('/config', { latencyMs: 0 });
});

test('Anthropic cache: entries expire after their lifetime; shorter prefixes are not cached', async () => {
  await post('/config', { cacheTtlMs: 50 });
  await post('/reset', {});
  await message(siblingRequest('SIBLING task-5: go'));
  await new Promise((resolve) => setTimeout(resolve, 80));
  const late = await message(siblingRequest('SIBLING task-6: go'));
  assert.equal(late.usage.cache_read_input_tokens, 0);
  await post('/config', { cacheTtlMs: 300_000, cacheMinTokens: 1_000_000 });
  await post('/reset', {});
  const small = await message(siblingRequest('SIBLING task-7: go'));
  assert.equal(small.usage.cache_creation_input_tokens, 0);
  await post('/config', { cacheMinTokens: 1024 });
});

test('Anthropic cache: looks back at most 20 blocks from a breakpoint', async () => {
  await post('/reset', {});
  const turns = (count) =>
    Array.from({ length: count }, (_, i) => [
      { role: 'assistant', content: [{ type: 'text', text: `step ${i}` }] },
      { role: 'user', content: [{ type: 'text', text: `more ${i}` }] },
    ]).flat();
  const base = siblingRequest('SIBLING task-8: go');
  await message(base);
  // The earlier breakpoint (the task) is 20 blocks back: found.
  const near = structuredClone(base);
  near.messages[0].content[0].cache_control = undefined;
  near.messages.push(...turns(10));
  near.messages.at(-1).content[0].cache_control = ephemeral;
  const nearReply = await message(near);
  assert.equal(nearReply.usage.cache_read_input_tokens > 2000, true);
  // 22 blocks back, with no breakpoint between: only the system prompt's entry is found.
  const far = structuredClone(near);
  far.messages.at(-1).content[0].cache_control = undefined;
  far.messages.push(
    ...turns(11).map((m) => ({
      ...m,
      content: [{ ...m.content[0], text: `${m.content[0].text}!` }],
    })),
  );
  far.messages.at(-1).content[0].cache_control = ephemeral;
  const farReply = await message(far);
  assert.ok(farReply.usage.cache_read_input_tokens < nearReply.usage.cache_read_input_tokens);
});

test('Anthropic wire: more than four breakpoints is an error, as on the real API', async () => {
  const body = siblingRequest('SIBLING task-9: go');
  body.messages.push(
    ...['a', 'b', 'c'].flatMap((text) => [
      { role: 'assistant', content: [{ type: 'text', text, cache_control: ephemeral }] },
      { role: 'user', content: [{ type: 'text', text }] },
    ]),
  );
  const res = await post('/v1/messages', body);
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /maximum of 4 blocks with cache_control/);
});
