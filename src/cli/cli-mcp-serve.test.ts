// `warren mcp serve` driven by the official MCP SDK client, as Claude Code or Cursor would: the
// served definitions as tools, a lead agent's two sub-agents (one background) with progress, a
// structured result, a cancel mid-run, permission questions as elicitations, and HTTP behind a
// bearer token. Runs the built CLI (`npm test` builds first).
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWarren, WARREN_BIN } from '../testing/cli-process.js';
import { startOtlpReceiver } from '../testing/otlp-receiver.js';
import { type ServedProject, servedProject, serveWarren } from '../testing/served-project.js';

let project: ServedProject;
const clients: Client[] = [];

beforeEach(async () => {
  project = await servedProject();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** An MCP client on `warren mcp serve` over stdio; `answer` handles elicitations when given. */
async function stdioClient(
  answer?: (message: string) => boolean,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client(
    { name: 'test', version: '1' },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => ({
      action: 'accept',
      content: { allow: answer(request.params.message) },
    }));
  }
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [WARREN_BIN, 'mcp', 'serve', ...extra, ...project.flags],
      cwd: project.dir,
      env: { PATH: process.env.PATH ?? '', ...project.env, ...env },
      stderr: 'ignore',
    }),
  );
  clients.push(client);
  return client;
}

const text = (result: Record<string, unknown>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join('');

describe('warren mcp serve over stdio', () => {
  it('lists the chosen definitions as tools, with an output schema where one is set', async () => {
    const client = await stdioClient(undefined, ['--agent', 'lead,counter']);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['lead', 'counter']);
    expect(tools[0]).toMatchObject({
      description: 'Plans and delegates to helpers.',
      inputSchema: { type: 'object', required: ['prompt'] },
    });
    expect(tools[0]?.outputSchema).toBeUndefined();
    expect(tools[1]?.outputSchema).toMatchObject({ properties: { count: { type: 'integer' } } });
  });

  it('runs a lead whose two helpers (one in the background) finish, reporting progress', async () => {
    const client = await stdioClient();
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'lead', arguments: { prompt: 'PLAN it' } },
      undefined,
      {
        onprogress: (note) => progress.push(note.message ?? ''),
        timeout: 30_000,
      },
    );
    expect(text(result)).toBe('lead done');
    expect(result.isError).toBeUndefined();
    expect(progress).toContain('main: started (lead)');
    expect(progress).toContain('main/Agent#1/helper: started (helper)');
    expect(progress.some((line) => /background task \S+ started/.test(line))).toBe(true);
    expect(progress.some((line) => /background task \S+ completed/.test(line))).toBe(true);
    expect(result._meta?.['warren/run']).toMatchObject({ agentType: 'lead', status: 'completed' });
  });

  it("returns a definition's structured value as structuredContent", async () => {
    const client = await stdioClient();
    const result = await client.callTool({ name: 'counter', arguments: { prompt: 'COUNT files' } });
    expect(result.structuredContent).toEqual({ count: 3 });
  });

  it('refuses a call without a prompt, naming the field', async () => {
    const client = await stdioClient();
    const result = await client.callTool({ name: 'lead', arguments: { task: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid arguments for lead: /);
  });

  it('stops the run when the client cancels the call, and goes on serving', async () => {
    const client = await stdioClient();
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { prompt: 'SLOW work' } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
    });
    await expect(call).rejects.toThrow();
    const cancelled = await eventually(async () =>
      (await transcripts()).some((line) => line.includes('"status":"cancelled"')),
    );
    expect(cancelled).toBe(true);
    const next = await client.callTool({ name: 'counter', arguments: { prompt: 'COUNT files' } });
    expect(next.structuredContent).toEqual({ count: 3 });
  });

  it('asks the client about a write (MCP elicitation): yes writes the file, no does not', async () => {
    const asked: string[] = [];
    const client = await stdioClient((message) => {
      asked.push(message);
      return message.includes('YES');
    });
    const yes = await client.callTool({ name: 'writer', arguments: { prompt: 'WRITE YES' } });
    expect(text(yes)).toBe('writer finished YES');
    expect(await readFile(join(project.dir, 'YES.txt'), 'utf8')).toBe('YES');
    const no = await client.callTool({ name: 'writer', arguments: { prompt: 'WRITE NO' } });
    expect(text(no)).toBe('writer finished NO');
    expect(existsSync(join(project.dir, 'NO.txt'))).toBe(false);
    expect(asked[0]).toMatch(/^main wants to run Write\(.*YES\.txt\)\. Allow it\?$/);
  });

  it("continues the caller's trace from the call's _meta.traceparent", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const client = await stdioClient(undefined, [], {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      });
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const spanId = '00f067aa0ba902b7';
      await client.callTool({
        name: 'counter',
        arguments: { prompt: 'COUNT files' },
        _meta: { traceparent: `00-${traceId}-${spanId}-01` },
      });
      // The server flushes its spans when its client goes.
      await clients.splice(clients.indexOf(client), 1)[0]?.close();
      const found = await eventually(async () =>
        receiver.spans().some((span) => span.name === 'invoke_agent counter'),
      );
      expect(found).toBe(true);
      const agent = receiver.spans().find((span) => span.name === 'invoke_agent counter');
      expect(agent).toMatchObject({ traceId, parentSpanId: spanId });
    } finally {
      await receiver.close();
    }
  });

  it('decides by the permission mode when the client takes no elicitations', async () => {
    const denied = await stdioClient();
    await denied.callTool({ name: 'writer', arguments: { prompt: 'WRITE ASKLESS' } });
    expect(existsSync(join(project.dir, 'ASKLESS.txt'))).toBe(false);
  });
});

describe('warren mcp serve --http', () => {
  it('serves Streamable HTTP to a client with the token, and 401 to one without', async () => {
    const tokenFile = join(project.home, 'token');
    await writeFile(tokenFile, 's3cret-token\n');
    const server = await serveWarren(project, [
      'mcp',
      'serve',
      '--http',
      '--port',
      '0',
      '--token-file',
      tokenFile,
    ]);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const anonymous = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' });
      expect(anonymous.status).toBe(401);
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { Authorization: 'Bearer s3cret-token' } },
        }),
      );
      clients.push(client);
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'lead', arguments: { prompt: 'PLAN it' } },
        undefined,
        {
          onprogress: (note) => progress.push(note.message ?? ''),
        },
      );
      expect(text(result)).toBe('lead done');
      expect(progress).toContain('main/Agent#1/helper: started (helper)');
      expect(server.stderr()).not.toContain('s3cret-token');
    } finally {
      await server.stop();
    }
  });

  it('says so in one line when its port is taken', async () => {
    const tokenFile = join(project.home, 'token');
    await writeFile(tokenFile, 't\n');
    const flags = ['mcp', 'serve', '--http', '--token-file', tokenFile];
    const first = await serveWarren(project, [...flags, '--port', '0']);
    try {
      const port = new URL(first.url).port;
      const second = await runWarren([...flags, '--port', port, ...project.flags], {
        env: project.env,
        cwd: project.dir,
      });
      expect(second.code).toBe(2);
      expect(second.stderr).toBe(
        `warren: --host 127.0.0.1 --port ${port}: cannot be listened on (EADDRINUSE) (choose another port (--port 0 picks a free one) or address)\n`,
      );
    } finally {
      await first.stop();
    }
  });

  it('will not serve HTTP without a token unless told to', async () => {
    const run = await runWarren(['mcp', 'serve', '--http', '--port', '0', ...project.flags], {
      env: project.env,
      cwd: project.dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^warren: mcp serve: has no token for its callers \(pass --token-file/,
    );
  });
});

async function transcripts(): Promise<string[]> {
  const files = (await readdir(project.sessionDir, { recursive: true })).filter((file) =>
    file.endsWith('.jsonl'),
  );
  const texts = await Promise.all(
    files.map((file) => readFile(join(project.sessionDir, file), 'utf8')),
  );
  return texts.flatMap((content) => content.split('\n'));
}

async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await delay(100)) {
    if (await check()) return true;
  }
  return false;
}
