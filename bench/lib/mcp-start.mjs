// The MCP scenario, run as its own process: (1) a per-agent stdio server (server-everything)
// from spawn to its first tools/list answer, and (2) N children that each start a server of
// their own at once: how many of those servers were alive together (N: none waited for
// another) and the run's wall time. Prints `RESULT <json>` like the workers do.

import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = new URL('../../dist/', import.meta.url);
const { McpConnection } = await import(new URL('mcp/mcp-connection.js', dist));
const { serverSpecsOf } = await import(new URL('mcp/server-config.js', dist));
const { liveGroups } = await import(new URL('core/process-group.js', dist));
const { query } = await import(new URL('index.js', dist));
const { scriptedModel } = await import(new URL('testing.js', dist));

const { starts, children } = JSON.parse(process.argv[2] ?? '{"starts":5,"children":20}');
const require = createRequire(import.meta.url);
const everything = {
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};
const cwd = mkdtempSync(path.join(tmpdir(), 'warren-bench-mcp-'));

/** One server: spawn, initialize, tools/list; then closed again. */
async function timedStart() {
  const [spec] = serverSpecsOf({ everything });
  const connection = new McpConnection(spec, { cwd, startTimeoutMs: 30_000 });
  const started = performance.now();
  await connection.start();
  const ms = performance.now() - started;
  if (connection.tools.length === 0) throw new Error('server-everything listed no tools');
  await connection.close();
  return ms;
}

/** N children at once, each with its own server; samples how many servers are alive. */
async function fanOut() {
  const agentCall = (index) => ({
    name: 'Agent',
    input: { description: `worker ${index}`, prompt: `WORKER-${index}`, subagent_type: 'worker' },
  });
  const model = scriptedModel([
    {
      match: { system: 'MAIN' },
      toolCalls: Array.from({ length: children }, (_, i) => agentCall(i)),
    },
    ...Array.from({ length: children }, (_, i) => ({
      match: { prompt: `/^WORKER-${i}$/` },
      toolCalls: [{ name: 'mcp__own__echo', input: { message: `hi ${i}` } }],
    })),
    ...Array.from({ length: children }, (_, i) => ({
      match: { prompt: `/^WORKER-${i}$/`, lastToolResult: 'Echo' },
      text: `done ${i}`,
    })),
    { match: { system: 'MAIN' }, text: 'all done' },
  ]);
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, liveGroups().length);
  }, 2);
  const started = performance.now();
  let result;
  for await (const event of query({
    prompt: 'fan out',
    options: {
      model,
      systemPrompt: 'MAIN',
      tools: [],
      cwd,
      maxParallel: children,
      agents: {
        worker: {
          description: 'works with its own server',
          prompt: 'WORKER',
          mcpServers: [{ own: everything }],
        },
      },
    },
  })) {
    if (event.type === 'result' && event.depth === 0) result = event;
  }
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  if (result?.status !== 'completed')
    throw new Error(`the run ended ${result?.status}: ${result?.error}`);
  const echoes = result.messages
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .filter((part) => part.output.startsWith('done'));
  if (echoes.length !== children)
    throw new Error(`${echoes.length} of ${children} children finished`);
  return { wallMs, peakServersAlive: peak };
}

try {
  await timedStart(); // warm the file cache
  const startMs = [];
  for (let i = 0; i < starts; i++) startMs.push(await timedStart());
  const fan = await fanOut();
  const sorted = [...startMs].sort((a, b) => a - b);
  const sample = {
    startMs,
    startMedianMs: sorted[sorted.length >> 1],
    children,
    peakServersAlive: fan.peakServersAlive,
    fanoutWallMs: fan.wallMs,
  };
  console.log(`RESULT ${JSON.stringify({ ok: true, samples: [sample] })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
}
