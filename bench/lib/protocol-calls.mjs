// The protocols scenario, run as its own process: one agent on a one-turn scripted model, called
// `calls` times one after another, in-process (query()), through a warm `warren mcp serve`
// (the MCP SDK's client over stdio) and through a warm `warren a2a serve` (the A2A SDK's client
// on loopback, streamed), and as a `kind: remote` child of an in-process parent against that A2A server.
// Reports the median call, spawn → result, of each. Prints `RESULT <json>` like the workers do.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = new URL('../../dist/', import.meta.url);
const { query } = await import(new URL('index.js', dist));
const { remoteAgentPorts } = await import(new URL('a2a/remote-agent-ports.js', dist));
const { sendTextRequest } = await import(new URL('a2a/a2a-parts.js', dist));
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } = await import(
  '@a2a-js/sdk/client'
);

const { calls } = JSON.parse(process.argv[2] ?? '{"calls":20}');
const BIN = new URL('../../bin/warren.js', import.meta.url).pathname;
const TOKEN = 'bench-token';
const scratch = mkdtempSync(path.join(tmpdir(), 'warren-bench-protocols-'));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A script of `turns` plain answers: each call of the one-turn agent uses one. */
function script(name, turns) {
  const file = path.join(scratch, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ turns: Array.from({ length: turns }, () => ({ text: 'ok' })) }),
  );
  return `scripted:${file}`;
}

async function timed(work) {
  const samples = [];
  for (let call = -1; call < calls; call++) {
    const started = performance.now();
    await work();
    // One untimed call first: the server's modules and the model's script are warm after it.
    if (call >= 0) samples.push(performance.now() - started);
  }
  return median(samples);
}

function serveA2a(model) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'a2a',
      'serve',
      '--port',
      '0',
      '--agent',
      'echo',
      '--model',
      model,
      '--session-dir',
      path.join(scratch, 's'),
    ],
    {
      cwd: scratch,
      env: { ...process.env, WARREN_SERVE_TOKEN: TOKEN, HOME: scratch },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const url = /(http:\/\/[^\s/]+)/.exec(stderr)?.[1];
      if (url) resolve({ url, child });
    });
    child.on('close', (code) => reject(new Error(`a2a serve exited ${code}: ${stderr}`)));
  });
}

let a2a;
let mcp;
try {
  mkdirSync(path.join(scratch, '.warren/agents'), { recursive: true });
  writeFileSync(
    path.join(scratch, '.warren/agents/echo.md'),
    '---\nname: echo\ndescription: Says ok.\n---\nSay ok.',
  );
  const turns = 2 * (calls + 1) + 2;
  const echo = { echo: { description: 'Says ok.', prompt: 'Say ok.' } };

  const inProcessMs = await timed(async () => {
    const run = query({
      prompt: 'hi',
      options: { model: script('local', turns), agents: echo, agent: 'echo', cwd: scratch },
    });
    for await (const _ of run);
  });

  mcp = new Client({ name: 'bench', version: '1' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        BIN,
        'mcp',
        'serve',
        '--agent',
        'echo',
        '--model',
        script('mcp', turns),
        '--session-dir',
        path.join(scratch, 's'),
      ],
      cwd: scratch,
      env: { ...process.env, HOME: scratch },
      stderr: 'ignore',
    }),
  );
  const mcpCallMs = await timed(() => mcp.callTool({ name: 'echo', arguments: { prompt: 'hi' } }));

  a2a = await serveA2a(script('a2a', 2 * turns));
  const fetchImpl = (input, init) =>
    fetch(input, {
      ...init,
      headers: {
        ...Object.fromEntries(new Headers(init?.headers)),
        authorization: `Bearer ${TOKEN}`,
      },
    });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
    }),
  );
  const client = await factory.createFromUrl(a2a.url);
  const a2aCallMs = await timed(async () => {
    for await (const _ of client.sendMessageStream(sendTextRequest('hi')));
  });

  // A parent here whose child `far` is the A2A server's echo: the parent's own two turns included.
  const far = {
    description: 'Says ok, remotely.',
    prompt: '',
    remote: {
      cardUrl: `${a2a.url}/.well-known/agent-card.json`,
      auth: { type: 'http', scheme: 'Bearer', token: TOKEN },
    },
  };
  const parentTurns = Array.from({ length: calls + 1 }, () => [
    {
      tool_calls: [
        { name: 'Agent', input: { description: 'd', prompt: 'hi', subagent_type: 'far' } },
      ],
    },
    { text: 'done' },
  ]).flat();
  const parentScript = path.join(scratch, 'parent.json');
  writeFileSync(parentScript, JSON.stringify({ turns: parentTurns }));
  const remoteChildMs = await timed(async () => {
    const run = query({
      prompt: 'hi',
      options: {
        model: `scripted:${parentScript}`,
        agents: { far },
        cwd: scratch,
        remoteAgents: remoteAgentPorts(process.env),
      },
    });
    for await (const event of run) {
      if (event.type === 'result' && event.agentType === 'far' && event.status !== 'completed') {
        throw new Error(`the remote child ended ${event.status}: ${event.error}`);
      }
    }
  });
  console.log(
    `RESULT ${JSON.stringify({ ok: true, samples: [{ inProcessMs, mcpCallMs, a2aCallMs, remoteChildMs }] })}`,
  );
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
} finally {
  await mcp?.close().catch(() => {});
  a2a?.child.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
