#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
// The benchmark's mock LLM: an OpenAI Chat Completions and Anthropic Messages server on loopback
// (JSON and SSE) whose answers are a pure function of the request, plus the counters the
// benchmark reads back. On the Anthropic wire it also keeps Anthropic's prompt cache
// (lib/prompt-cache-model.mjs) and reports cache reads and writes in usage, as the API does.
//
//   node bench/mock-llm.mjs [--port P]     prints MOCK_LLM_LISTENING http://127.0.0.1:<port>
//
// Endpoints: POST /v1/chat/completions; POST /v1/messages; GET /v1/models (clients probe it);
// GET /stats; POST /reset (zero the counters, empty the caches); GET|POST /config (read / merge
// the settings below).
//
// What it answers, by the first ROLE:<name> marker in the system prompt:
//   parent     no tool results yet: N parallel calls of the sub-agent tool (the first tool named
//              in `subagentTools`), each with its own task; then "PARENT_DONE results=n ok=m"
//              (m = results containing CHILD_DONE)
//   child      K-1 turns calling `lookup`, then "CHILD_DONE lookups=n task=<its first user message>"
//   stepper    K-1 turns of one Glob call each (matching nothing), then "STEPPER_DONE steps=n"
//   reader     one Read call per file of `files`; then "READER_DONE results=n ok=m"
//   delegator  `exploreChildren` sub-agent calls, each given a share of `files` in a task that
//              starts with "EXPLORE:"; then "DELEGATOR_DONE results=n ok=m" (m = reports that
//              read every file they were given)
//   cacheparent  (the cache scenario) Reads the first 3 of `files`; then `n` calls of the
//              sub-agent tool of type `subagentType`, each "SIBLING task-<i>", and one more with
//              `forkContext: true` whose task starts "FORK-TASK"; then "CACHEPARENT_DONE
//              children=m" (m = results holding SIBLING_DONE or FORK_DONE)
//   wfparent   (the workflow scenario) one Workflow call whose script starts `n` items of type
//              `sibling`, each "SIBLING task-<i>" (the cacheparent's tasks); then
//              "WFPARENT_DONE"
//   sibling    Glob, Grep, then Reads 3 files one per turn, then "SIBLING_DONE"
//   fork       a conversation whose last user text holds FORK-TASK (a forked child: its system
//              prompt is its parent's): Reads 1 file, then "FORK_DONE"
//   (none)     a conversation whose first user message starts with "EXPLORE:" is an explore
//              child (warren's built-in prompt has no marker): one Read per listed file, then a
//              one-line summary per file; anything else gets one line of text (the CLI start).
// The sub-agent tool's arguments come from its JSON schema: `description` gets a short label,
// every other required string the task text, and `subagent_type` the configured type.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  anthropicError,
  anthropicReply,
  readAnthropicConversation,
} from './lib/anthropic-wire.mjs';
import { cacheBlocks, MAX_BREAKPOINTS, PromptCacheModel } from './lib/prompt-cache-model.mjs';

const HOST = '127.0.0.1';

/** Settings, changed between scenarios with POST /config. */
const config = {
  n: 3,
  k: 2,
  latencyMs: 0,
  /** Fragments per streamed text or tool-call arguments. */
  chunks: 4,
  chunkDelayMs: 0,
  /** Names the parent's sub-agent tool may have, in order of preference. */
  subagentTools: ['Agent', 'run_child_agent'],
  /** `subagent_type` of the parent's sub-agent calls, where the tool has that argument. */
  subagentType: 'child',
  /** Absolute paths the reader and the delegator's explore children read. */
  files: [],
  exploreChildren: 4,
  /** Anthropic's prompt cache: entry lifetime, and the shortest prefix it caches (Sonnet). */
  cacheTtlMs: 5 * 60_000,
  cacheMinTokens: 1024,
};

/**
 * One cache per variant, all fed the same requests: `anthropic` is the API as documented (what
 * usage reports); `private` lets every agent read only what it wrote itself: Claude Code's
 * documented behaviour, where children never read their parent's cache, and siblings started in
 * one message all send their first request before any of them has written; `bound` is the most
 * any breakpoint placement could read of these requests (every block a breakpoint).
 */
const CACHE_VARIANTS = {
  anthropic: () => 'all',
  private: (agent) => agent.id,
  bound: () => 'all',
};
let caches;
function resetCaches() {
  caches = Object.fromEntries(
    Object.keys(CACHE_VARIANTS).map((name) => [
      name,
      new PromptCacheModel({
        ttlMs: config.cacheTtlMs,
        minTokens: config.cacheMinTokens,
        bound: name === 'bound',
      }),
    ]),
  );
}

let stats;
function resetStats() {
  stats = {
    t0: performance.now(),
    cpu0: process.cpuUsage(),
    requests: 0,
    completed: 0,
    errors: 0,
    errorSamples: [],
    inFlight: 0,
    maxInFlight: 0,
    streamed: 0,
    byRole: {},
    childFirstTurnMs: [],
    /** TCP connections opened: a client that reuses its keep-alive connections opens few. */
    connections: 0,
    modelsGets: 0,
    firstModelsGetEpochMs: null,
    firstPostEpochMs: null,
    // The context a role's model saw last (its messages, as characters / 4), and in total.
    lastByRole: {},
    totalMessageTokens: 0,
    /** Anthropic wire: per agent, tokens read, written and uncached under each cache variant. */
    cacheAgents: new Map(),
  };
  resetCaches();
}
resetStats();

function summary() {
  const first = stats.childFirstTurnMs;
  const cpu = process.cpuUsage(stats.cpu0);
  return {
    requests: stats.requests,
    completed: stats.completed,
    errors: stats.errors,
    errorSamples: stats.errorSamples,
    inFlight: stats.inFlight,
    maxInFlight: stats.maxInFlight,
    streamed: stats.streamed,
    byRole: stats.byRole,
    // How far apart the children's first requests arrived (0 = all launched at once).
    childFirstTurn: first.length
      ? { count: first.length, spreadMs: Math.max(...first) - Math.min(...first) }
      : null,
    connections: stats.connections,
    modelsGets: stats.modelsGets,
    firstModelsGetEpochMs: stats.firstModelsGetEpochMs,
    firstPostEpochMs: stats.firstPostEpochMs,
    lastByRole: stats.lastByRole,
    totalMessageTokens: stats.totalMessageTokens,
    cacheAgents: [...stats.cacheAgents.values()],
    serverCpuMs: (cpu.user + cpu.system) / 1000,
    config,
  };
}

/** A wall-clock time other processes on this machine can compare with their own. */
const epochMs = () => performance.timeOrigin + performance.now();
const sleep = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : null);
const newId = (prefix) => prefix + randomBytes(9).toString('hex');

// ---------------------------------------------------------------- reading a request

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

/** The parts of a conversation the script looks at. */
function readConversation(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let system = '';
  let firstUser = '';
  let assistantTurns = 0;
  const toolResults = [];
  for (const message of messages) {
    if (message?.role === 'system' || message?.role === 'developer') {
      system += `${textOf(message.content)}\n`;
    } else if (message?.role === 'assistant') assistantTurns++;
    else if (message?.role === 'tool') toolResults.push(textOf(message.content));
    else if (message?.role === 'user' && !firstUser) firstUser = textOf(message.content);
  }
  const tools = (Array.isArray(body.tools) ? body.tools : [])
    .map((tool) => ({ name: tool?.function?.name, schema: tool?.function?.parameters }))
    .filter((tool) => typeof tool.name === 'string');
  return { system, firstUser, assistantTurns, toolResults, tools };
}

function roleOf(conversation) {
  if (conversation.lastUserText?.includes('FORK-TASK')) return 'fork';
  const marker = /ROLE:([a-z]+)/.exec(conversation.system);
  if (marker) return marker[1];
  return conversation.firstUser.startsWith('EXPLORE:') ? 'explorer' : 'other';
}

// ---------------------------------------------------------------- the script

class ScriptError extends Error {}

/** What to answer: `{ role, turn, text }` or `{ role, turn, calls: [{ id, name, args }] }`. */
function decide(conversation, cfg) {
  const role = roleOf(conversation);
  const turn = conversation.assistantTurns;
  const done = conversation.toolResults.length > 0;
  const answer = (fields) => ({ role, turn, ...fields });
  const results = (marker, isOk) => {
    const ok = conversation.toolResults.filter(isOk).length;
    return answer({ text: `${marker} results=${conversation.toolResults.length} ok=${ok}` });
  };

  switch (role) {
    case 'parent': {
      if (done) return results('PARENT_DONE', (r) => r.includes('CHILD_DONE'));
      const tasks = Array.from({ length: cfg.n }, (_, i) => ({
        label: `task-${i}`,
        text: `task-${i}: investigate topic #${i} and report`,
      }));
      return answer({ calls: subagentCalls(conversation, cfg, tasks, cfg.subagentType) });
    }
    case 'child': {
      if (turn >= cfg.k - 1) {
        const task = conversation.firstUser.replace(/\s+/g, ' ').slice(0, 120);
        return answer({
          text: `CHILD_DONE lookups=${conversation.toolResults.length} task=${task}`,
        });
      }
      requireTool(conversation, 'lookup', role);
      return answer({
        calls: [{ id: newId('call_'), name: 'lookup', args: { key: `key-${turn}` } }],
      });
    }
    case 'stepper':
      // The remote scenario: K-1 turns of one cheap built-in call each (Glob matching nothing),
      // then a line of text: 2K-1 loop steps, each journaled on a worker.
      if (turn >= cfg.k - 1) return answer({ text: `STEPPER_DONE steps=${2 * turn + 1}` });
      requireTool(conversation, 'Glob', role);
      return answer({
        calls: [{ id: newId('call_'), name: 'Glob', args: { pattern: `no-such-${turn}-*.none` } }],
      });
    case 'reader':
      if (done) return results('READER_DONE', (r) => r.includes('BENCHFILE'));
      return answer({ calls: readCalls(conversation, cfg.files, role) });
    case 'delegator': {
      if (done) return results('DELEGATOR_DONE', isCompleteReport);
      const shares = split(cfg.files, cfg.exploreChildren);
      const tasks = shares.map((files, i) => ({
        label: `explore part ${i + 1}`,
        text: `EXPLORE:\n${files.join('\n')}`,
      }));
      return answer({ calls: subagentCalls(conversation, cfg, tasks, 'explore') });
    }
    case 'explorer': {
      if (!done) {
        const files = conversation.firstUser.split('\n').slice(1).filter(Boolean);
        return answer({ calls: readCalls(conversation, files, role) });
      }
      const found = conversation.toolResults.map(fileSummary).filter(Boolean);
      const lines = found.map((line) => `- ${line}`).join('\n');
      return answer({
        text: `EXPLORE_DONE files=${conversation.toolResults.length} ok=${found.length}\n${lines}`,
      });
    }
    case 'cacheparent': {
      const turn = conversation.ownTurns;
      if (turn === 0)
        return answer({ calls: readCalls(conversation, cfg.files.slice(0, 3), role) });
      if (turn === 1) {
        const siblings = Array.from({ length: cfg.n }, (_, i) => ({
          label: `sibling ${i}`,
          text: `SIBLING task-${i}: summarise ${cfg.files[(3 + 3 * i) % cfg.files.length]} and the two files after it`,
        }));
        const fork = {
          label: 'forked summary',
          text: 'FORK-TASK: from what we have read so far, list the rules the three files share',
          type: 'general-purpose',
          extra: { forkContext: true },
        };
        return answer({
          calls: subagentCalls(conversation, cfg, [...siblings, fork], cfg.subagentType),
        });
      }
      const done = conversation.toolResults.filter((r) => /SIBLING_DONE|FORK_DONE/.test(r)).length;
      return answer({ text: `CACHEPARENT_DONE children=${done}` });
    }
    case 'wfparent': {
      if (conversation.ownTurns > 0) return answer({ text: 'WFPARENT_DONE' });
      requireTool(conversation, 'Workflow', role);
      const tasks = Array.from(
        { length: cfg.n },
        (_, i) =>
          `SIBLING task-${i}: summarise ${cfg.files[(3 + 3 * i) % cfg.files.length]} and the two files after it`,
      );
      const script = [
        "export const meta = { name: 'summaries', description: 'one summariser per share' };",
        'export const result = (await pipeline(args.tasks, (task, i) =>',
        "  agent(task, { agentType: 'sibling', label: 'sibling ' + i }))).filter(Boolean).length;",
      ].join('\n');
      return answer({
        calls: [{ id: newId('call_'), name: 'Workflow', args: { script, args: { tasks } } }],
      });
    }
    case 'sibling': {
      // An exploring child: find files, search them, read three one at a time, report.
      const turn = conversation.ownTurns;
      const index = Number(/task-(\d+)/.exec(conversation.lastUserText)?.[1] ?? 0);
      const at = (k) => cfg.files[(3 + 3 * index + k) % cfg.files.length];
      const call = (name, args) => [{ id: newId('call_'), name, args }];
      if (turn === 0) return answer({ calls: call('Glob', { pattern: 'src/**/*.ts' }) });
      if (turn === 1)
        return answer({
          calls: call('Grep', { pattern: 'export function', output_mode: 'count' }),
        });
      if (turn <= 4) return answer({ calls: readCalls(conversation, [at(turn - 2)], role) });
      return answer({
        text: `SIBLING_DONE task-${index}: the three files define eight functions each over their entry type.`,
      });
    }
    case 'fork': {
      if (conversation.ownTurns === 0) {
        return answer({ calls: readCalls(conversation, cfg.files.slice(-1), role) });
      }
      return answer({ text: 'FORK_DONE' });
    }
    default:
      return answer({ text: 'MOCK_HELLO: no ROLE marker in the system prompt.' });
  }
}

function requireTool(conversation, name, role) {
  const tool = conversation.tools.find((candidate) => candidate.name === name);
  if (tool) return tool;
  const names = conversation.tools.map((candidate) => candidate.name).join(',');
  throw new ScriptError(`${role} request has no '${name}' tool; tools=[${names}]`);
}

function subagentCalls(conversation, cfg, tasks, subagentType) {
  const tool = cfg.subagentTools
    .map((name) => conversation.tools.find((candidate) => candidate.name === name))
    .find(Boolean);
  if (!tool) {
    const names = conversation.tools.map((candidate) => candidate.name).join(',');
    throw new ScriptError(`no sub-agent tool (${cfg.subagentTools}) in tools=[${names}]`);
  }
  return tasks.map((task) => ({
    id: newId('call_'),
    name: tool.name,
    args: { ...subagentArgs(tool.schema, task, task.type ?? subagentType), ...task.extra },
  }));
}

/** Arguments for a sub-agent tool, from its JSON schema, as a model would fill them. */
function subagentArgs(schema, task, subagentType) {
  const properties = schema?.properties ?? {};
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const isString = (name) => properties[name]?.type === 'string';
  const args = {};
  for (const name of required.filter(isString)) {
    args[name] = name === 'description' ? task.label : task.text;
  }
  if (Object.keys(args).length === 0) {
    const first = Object.keys(properties).find(isString) ?? 'task';
    args[first] = task.text;
  }
  if ('subagent_type' in properties) args.subagent_type = subagentType;
  return args;
}

function readCalls(conversation, files, role) {
  requireTool(conversation, 'Read', role);
  if (files.length === 0) throw new ScriptError(`${role} has no files to read`);
  return files.map((file) => ({ id: newId('call_'), name: 'Read', args: { file_path: file } }));
}

/** An explore child's report that read every file it was given. */
function isCompleteReport(toolResult) {
  const match = /EXPLORE_DONE files=(\d+) ok=(\d+)/.exec(toolResult);
  return match !== null && match[1] === match[2];
}

/** The generated files start with "BENCHFILE <what it is>": that line is the summary. */
function fileSummary(toolResult) {
  const match = /BENCHFILE ([^\n]*)/.exec(toolResult);
  return match ? match[1].trim().slice(0, 100) : null;
}

function split(items, parts) {
  const count = Math.max(1, Math.min(parts, items.length));
  const size = Math.ceil(items.length / count);
  const shares = [];
  for (let i = 0; i < items.length; i += size) shares.push(items.slice(i, i + size));
  return shares;
}

function pieces(text, count) {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, count)));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

// ---------------------------------------------------------------- answering

async function chatCompletions(body, bodyBytes, res, record) {
  const cfg = config;
  const conversation = readConversation(body);
  const decision = decide(conversation, cfg);
  record.role = decision.role;
  if (decision.role === 'child' && decision.turn === 0) {
    stats.childFirstTurnMs.push(record.arrive - stats.t0);
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const messageChars = JSON.stringify(messages).length;
  const messageTokens = Math.ceil(messageChars / 4);
  stats.lastByRole[decision.role] = { messageChars, messageTokens, messages: messages.length };
  stats.totalMessageTokens += messageTokens;

  const calls = decision.calls ?? [];
  const outChars =
    (decision.text ?? '').length +
    calls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.args).length, 0);
  const usage = {
    prompt_tokens: Math.max(1, Math.ceil(bodyBytes / 4)),
    completion_tokens: Math.max(1, Math.ceil(outChars / 4)),
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const model = body.model || 'mock-model';
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';

  await sleep(cfg.latencyMs);

  if (!body.stream) {
    const message = { role: 'assistant', content: decision.text ?? null, refusal: null };
    if (calls.length > 0) {
      message.tool_calls = calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      }));
    }
    const choices = [{ index: 0, message, logprobs: null, finish_reason: finish }];
    sendJson(res, 200, { id, object: 'chat.completion', created, model, choices, usage });
    return;
  }

  record.stream = true;
  const includeUsage = body.stream_options?.include_usage === true;
  const frames = [];
  const chunk = (delta, finishReason = null, extra = {}) =>
    frames.push(
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] : [],
        ...extra,
      })}\n\n`,
    );
  chunk({ role: 'assistant', content: calls.length > 0 ? null : '' });
  for (const piece of decision.text === undefined ? [] : pieces(decision.text, cfg.chunks)) {
    chunk({ content: piece });
  }
  calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    chunk({ tool_calls: [head] });
    for (const piece of pieces(JSON.stringify(call.args), cfg.chunks)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  // With include_usage, usage comes as a last chunk without choices, as OpenAI sends it.
  if (includeUsage) {
    chunk({}, finish);
    chunk(null, null, { usage });
  } else chunk({}, finish, { usage });
  frames.push('data: [DONE]\n\n');

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (cfg.chunkDelayMs > 0) {
    for (const frame of frames) {
      res.write(frame);
      await sleep(cfg.chunkDelayMs);
    }
    res.end();
  } else res.end(frames.join(''));
}

/**
 * POST /v1/messages. The agent a request belongs to is its role and its task (the last user
 * text): the key the cache variants scope entries by, and the row its usage is added to.
 */
async function anthropicMessages(body, res, record) {
  const cfg = config;
  const conversation = readAnthropicConversation(body);
  const decision = decide(conversation, cfg);
  record.role = decision.role;
  const blocks = cacheBlocks(body);
  const breakpoints = blocks.filter((block) => block.marked).length;
  if (breakpoints > MAX_BREAKPOINTS) {
    throw new ScriptError(
      `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`,
    );
  }
  const agent = {
    role: decision.role,
    id: `${decision.role}|${conversation.lastUserText.slice(0, 200)}`,
  };
  let row = stats.cacheAgents.get(agent.id);
  if (!row) {
    row = {
      role: agent.role,
      task: conversation.lastUserText.slice(0, 80),
      firstRequestMs: record.arrive - stats.t0,
      requests: 0,
      variants: {},
    };
    stats.cacheAgents.set(agent.id, row);
  }
  row.requests++;
  const accounts = Object.entries(CACHE_VARIANTS).map(([name, scopeOf]) => {
    const account = caches[name].account(blocks, scopeOf(agent));
    if (name === 'bound') account.commit();
    row.variants[name] ??= { read: 0, write: 0, input: 0, total: 0 };
    const sums = row.variants[name];
    for (const key of ['read', 'write', 'input', 'total']) sums[key] += account[key];
    return [name, account];
  });
  const served = Object.fromEntries(accounts).anthropic;
  const calls = decision.calls ?? [];
  const outChars =
    (decision.text ?? '').length +
    calls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.args).length, 0);
  const usage = {
    input: served.input,
    cacheRead: served.read,
    cacheWrite: served.write,
    output: Math.max(1, Math.ceil(outChars / 4)),
  };
  const reply = anthropicReply(decision, { model: body.model || 'mock-model', usage });
  await sleep(cfg.latencyMs);
  // The response begins: what this request wrote is readable from now on, as on the real API.
  for (const [, account] of accounts) account.commit();
  if (!body.stream) {
    sendJson(res, 200, reply.json);
    return;
  }
  record.stream = true;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(reply.sse.join(''));
}

// ---------------------------------------------------------------- server

function sendJson(res, status, value) {
  const payload = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function modelRequest(req, res, api = 'openai') {
  const arrive = performance.now();
  stats.firstPostEpochMs ??= epochMs();
  stats.requests++;
  stats.inFlight++;
  stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
  const record = { role: 'unknown', stream: false, arrive };
  const generation = stats; // a request that straddles a /reset counts for neither side
  res.on('close', () => {
    if (generation !== stats) return;
    stats.inFlight--;
    stats.completed++;
    stats.byRole[record.role] = (stats.byRole[record.role] ?? 0) + 1;
    if (record.stream) stats.streamed++;
  });
  let raw;
  try {
    raw = await readBody(req);
    const body = JSON.parse(raw.toString('utf8') || '{}');
    if (api === 'anthropic') await anthropicMessages(body, res, record);
    else await chatCompletions(body, raw.length, res, record);
  } catch (error) {
    stats.errors++;
    const message = error instanceof Error ? error.message : String(error);
    if (stats.errorSamples.length < 5) stats.errorSamples.push(message);
    if (process.env.MOCK_DEBUG === '1') {
      process.stderr.write(`mock-llm: ${message}\nrequest: ${raw?.toString('utf8')}\n`);
    }
    const status = error instanceof ScriptError ? 400 : 500;
    if (res.headersSent) res.end();
    else if (api === 'anthropic') sendJson(res, status, anthropicError(message));
    else sendJson(res, status, { error: { message, type: 'invalid_request_error', code: null } });
  }
}

async function route(req, res) {
  const path = new URL(req.url, `http://${HOST}`).pathname.replace(/\/+$/, '');
  if (req.method === 'POST' && path === '/v1/chat/completions') return modelRequest(req, res);
  if (req.method === 'POST' && path === '/v1/messages') return modelRequest(req, res, 'anthropic');
  if (req.method === 'GET' && path === '/v1/models') {
    stats.modelsGets++;
    stats.firstModelsGetEpochMs ??= epochMs();
    const data = [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' }];
    return sendJson(res, 200, { object: 'list', data });
  }
  if (req.method === 'GET' && path === '/stats') return sendJson(res, 200, summary());
  if (req.method === 'POST' && path === '/reset') {
    await readBody(req);
    resetStats();
    return sendJson(res, 200, { ok: true });
  }
  if (path === '/config') {
    if (req.method === 'POST') {
      const patch = JSON.parse((await readBody(req)).toString('utf8') || '{}');
      for (const [key, value] of Object.entries(patch)) {
        if (!(key in config))
          return sendJson(res, 400, { error: { message: `unknown setting ${key}` } });
        config[key] = value;
      }
    }
    return sendJson(res, 200, config);
  }
  sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
}

const server = http.createServer((req, res) => {
  route(req, res).catch((error) => sendJson(res, 400, { error: { message: String(error) } }));
});
server.on('connection', () => {
  stats.connections++;
});
// A thousand children keep their connections open between turns; none may be dropped.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.requestTimeout = 0;

const portFlag = process.argv.indexOf('--port');
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 0;
server.listen({ host: HOST, port, backlog: 4096 }, () => {
  process.stdout.write(`MOCK_LLM_LISTENING http://${HOST}:${server.address().port}\n`);
});
const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
