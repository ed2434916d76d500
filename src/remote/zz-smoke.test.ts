import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveAgentDefinitions } from '../agents/definitions/load-agent-definitions.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import { registerWorker } from '../remote/restate-admin.js';
import { RestateExecutor } from '../remote/restate-executor.js';
import { serveWorker } from '../remote/restate-worker.js';
import { startMockLlmServer } from '../testing/mock-llm/server.js';
import { startRestateServer } from '../testing/restate-server.js';

let server: Awaited<ReturnType<typeof startRestateServer>>;
beforeAll(async () => {
  server = await startRestateServer();
}, 120_000);
afterAll(async () => server?.stop());

it('runs a child', async () => {
  const llm = await startMockLlmServer({
    replies: [
      { toolCalls: [{ name: 'Bash', input: { command: 'echo hi' } }] },
      { text: 'done it' },
    ],
  });
  const worker = await serveWorker({ port: 0, env: { WARREN_API_KEY: 'worker-key' } });
  await registerWorker({ adminUrl: server.adminUrl, workerUrl: worker.url });
  const executor = new RestateExecutor({ ingressUrl: server.ingressUrl, adminUrl: server.adminUrl });
  const definition = resolveAgentDefinitions({}).get('general-purpose')!;
  const spec: RemoteChildSpec = {
    agentId: 'agent_smoke1',
    parentId: 'main_x',
    depth: 1,
    agentPath: 'main/Agent#1/general-purpose',
    description: 'smoke',
    prompt: 'say hi',
    definition: definition as never,
    definitions: [],
    tools: ['Read', 'Bash'],
    model: { spec: 'openai-compatible:mock', baseUrl: `${llm.url}/v1` },
    cwd: '/tmp',
    budget: { maxTurns: 5 },
    permissions: { mode: 'bypassPermissions', allow: [], deny: [], ask: [] },
    maxDepth: 3,
    calls: {},
  };
  await executor.submit(spec);
  const result = await executor.result('agent_smoke1');
  console.log(JSON.stringify(result, null, 1).slice(0, 3000));
  console.log(await executor.progress('agent_smoke1'));
  console.log(llm.requests.map((r) => r.headers.authorization));
  expect(result.result).toBe('done it');
  await worker.close();
  await llm.close();
}, 120_000);
