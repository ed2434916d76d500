// MCP connections against the real servers from npm: each transport, starts that fail, a server
// killed mid-call, cancellation, and no process left behind.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../core/tool.js';
import {
  everythingServer,
  filesystemServer,
  type LoopbackServer,
  memoryServer,
  serveEverythingHttp,
  serveEverythingSse,
} from '../testing/mcp-servers.js';
import { isAlive } from '../testing/process-liveness.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { isErrorOutput, outputText, testToolContext } from '../testing/tool-context.js';
import { McpConnection } from './mcp-connection.js';
import { mcpTools } from './mcp-tool.js';
import { type McpServerInput, serverSpecsOf } from './server-config.js';

const open: McpConnection[] = [];
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function connect(config: McpServerInput, startTimeoutMs = 15_000): Promise<McpConnection> {
  const [spec] = serverSpecsOf({ srv: config });
  const connection = new McpConnection(spec!, { cwd: process.cwd(), startTimeoutMs });
  open.push(connection);
  await connection.start();
  return connection;
}

async function startFailure(config: McpServerInput, startTimeoutMs = 15_000): Promise<string> {
  const error = await connect(config, startTimeoutMs).then(
    () => undefined,
    (reason: Error) => reason,
  );
  return error?.message ?? 'started';
}

function toolNamed(connection: McpConnection, name: string): Tool {
  const tool = mcpTools(connection, 20_000).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

const call = (tool: Tool, input: unknown, signal = new AbortController().signal) =>
  (tool as Extract<Tool, { spawnsAgents?: false }>).call(input, testToolContext({ signal }));

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

describe('an MCP connection', () => {
  it('starts server-everything over stdio in a process group of its own, and lists its tools', async () => {
    const connection = await connect(everythingServer());
    const pid = connection.pid!;
    expect(isAlive(-pid)).toBe(true);
    const names = connection.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    const echo = toolNamed(connection, 'mcp__srv__echo');
    expect(echo.isReadOnly).toBe(true);
    // The server's schema, as the server sent it.
    expect(echo.jsonSchema).toEqual(
      connection.tools.find((tool) => tool.name === 'echo')?.inputSchema,
    );
    expect(await call(echo, { message: 'hello' })).toBe('Echo: hello');
  });

  it('maps images and structured content, and turns an error of the server into an error result', async () => {
    const connection = await connect(everythingServer());
    const image = await call(toolNamed(connection, 'mcp__srv__get-tiny-image'), {});
    expect(outputText(image)).toMatch(/\[image: image\/png, \d+ bytes, not shown\]/);
    const weather = await call(toolNamed(connection, 'mcp__srv__get-structured-content'), {
      location: 'Chicago',
    });
    expect(JSON.parse(outputText(weather))).toHaveProperty('temperature');
    const wrong = await call(toolNamed(connection, 'mcp__srv__get-sum'), { a: 'one' });
    expect(isErrorOutput(wrong)).toBe(true);
    expect(outputText(wrong)).toMatch(/expected number/);
  });

  it('speaks Streamable HTTP with the configured headers', async () => {
    const http = await serveEverythingHttp();
    servers.push(http);
    const connection = await connect({
      type: 'http',
      url: http.url,
      headers: { 'X-Team': 'warren' },
    });
    expect(await call(toolNamed(connection, 'mcp__srv__get-sum'), { a: 2, b: 3 })).toBe(
      'The sum of 2 and 3 is 5.',
    );
    expect(http.requests.every((request) => request.headers['x-team'] === 'warren')).toBe(true);
  });

  it('speaks legacy SSE, and falls back to it when a server given without a type refuses Streamable HTTP', async () => {
    const sse = await serveEverythingSse();
    servers.push(sse);
    for (const config of [{ type: 'sse' as const, url: sse.url }, { url: sse.url }]) {
      const connection = await connect(config);
      expect(await call(toolNamed(connection, 'mcp__srv__echo'), { message: 'old' })).toBe(
        'Echo: old',
      );
    }
  });

  it('links an in-process McpServer without a process or a socket', async () => {
    const server = new McpServer({ name: 'mine', version: '1.0.0' });
    server.registerTool(
      'shout',
      { description: 'Upper-cases text', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
    );
    const connection = await connect(server);
    expect(connection.pid).toBeUndefined();
    const shout = toolNamed(connection, 'mcp__srv__shout');
    expect(shout.isReadOnly).toBe(false);
    expect(await call(shout, { text: 'hi' })).toBe('HI');
  });

  it('works with server-filesystem and server-memory', async () => {
    const dir = await makeTempDir('warren-mcp-fs-');
    await writeFile(join(dir, 'notes.txt'), 'the answer is 42\n');
    const fs = await connect(filesystemServer(dir));
    const read = toolNamed(fs, 'mcp__srv__read_text_file');
    expect(read.isReadOnly).toBe(true);
    expect(toolNamed(fs, 'mcp__srv__write_file').isReadOnly).toBe(false);
    expect(outputText(await call(read, { path: join(dir, 'notes.txt') }))).toContain('42');
    const outside = await call(read, { path: '/etc/hostname' });
    expect(isErrorOutput(outside)).toBe(true);

    const memoryFile = join(dir, 'memory.jsonl');
    const memory = await connect(memoryServer(memoryFile));
    await call(toolNamed(memory, 'mcp__srv__create_entities'), {
      entities: [{ name: 'warren', entityType: 'project', observations: ['runs agents'] }],
    });
    expect(outputText(await call(toolNamed(memory, 'mcp__srv__read_graph'), {}))).toContain(
      'runs agents',
    );
    expect(await readFile(memoryFile, 'utf8')).toContain('warren');
  });

  it('hands the model a file read through server-filesystem once, not twice', async () => {
    const dir = await makeTempDir('warren-mcp-fs-once-');
    const file = 'const answer = "forty-two";\n'.repeat(2_000);
    await writeFile(join(dir, 'big.ts'), file);
    const fs = await connect(filesystemServer(dir));
    const output = outputText(
      await call(toolNamed(fs, 'mcp__srv__read_text_file'), { path: join(dir, 'big.ts') }),
    );
    expect(output).toBe(file);
  });

  it('says why a server did not start: a missing command, an early exit, no answer in time', async () => {
    expect(await startFailure({ command: 'warren-no-such-server' })).toBe(
      'the command "warren-no-such-server" was not found',
    );
    const exit = await startFailure({
      command: process.execPath,
      args: ['-e', 'console.error("missing API key"); process.exit(3)'],
    });
    expect(exit).toContain('exited with code 3');
    expect(exit).toContain('missing API key');
    const silent = await startFailure(
      { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
      500,
    );
    expect(silent).toMatch(/^it did not answer within 500 ms \(MCP_TIMEOUT sets the limit\); /);
  });

  it('passes the certificate and proxy variables to a stdio server, never the provider keys', async () => {
    const dir = await makeTempDir('warren-mcp-env-');
    const seen = join(dir, 'env.json');
    const network = {
      NODE_EXTRA_CA_CERTS: join(dir, 'corporate-ca.pem'),
      SSL_CERT_FILE: join(dir, 'bundle.pem'),
      SSL_CERT_DIR: dir,
      HTTPS_PROXY: 'http://proxy-user:proxy-pass@127.0.0.1:3128',
      http_proxy: 'http://127.0.0.1:3128',
      NO_PROXY: 'localhost,127.0.0.1',
      no_proxy: 'localhost',
    };
    const keys = {
      ANTHROPIC_API_KEY: 'sk-ant-hidden-value-1234',
      OPENAI_API_KEY: 'sk-hidden-5678',
    };
    const saved = { ...process.env };
    Object.assign(process.env, network, keys);
    try {
      const silent = await startFailure(
        {
          command: process.execPath,
          args: [
            '-e',
            `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.env)); setInterval(() => {}, 1000)`,
            '--',
            '--token',
            'tok-abcdef-123',
          ],
          env: { SERVER_SECRET: 's3cr3t-value' },
        },
        1_500,
      );
      const env = JSON.parse(await readFile(seen, 'utf8')) as Record<string, string>;
      expect(env).toMatchObject({ ...network, SERVER_SECRET: 's3cr3t-value' });
      expect(env.ANTHROPIC_API_KEY).toBeUndefined();
      expect(env.OPENAI_API_KEY).toBeUndefined();

      // The error says what the silent server was given, and no secret.
      expect(silent).toContain('it did not answer within 1500 ms (MCP_TIMEOUT sets the limit)');
      expect(silent).toContain(`it was started as ${process.execPath} -e`);
      expect(silent).toContain('--token …');
      expect(silent).toContain(`in ${process.cwd()}`);
      expect(silent).toMatch(
        /with the variables .*HTTPS_PROXY.*NODE_EXTRA_CA_CERTS.*SERVER_SECRET/,
      );
      for (const value of ['proxy-pass', 's3cr3t-value', 'tok-abcdef', 'sk-ant-hidden']) {
        expect(silent).not.toContain(value);
      }
    } finally {
      for (const name of Object.keys({ ...network, ...keys })) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('stops a server that did not answer in time, and whatever it started', async () => {
    const dir = await makeTempDir('warren-mcp-hang-');
    const pidFile = join(dir, 'grandchild.pid');
    await startFailure(
      { command: 'bash', args: ['-c', `sleep 300 & echo $! > ${pidFile}; sleep 300`] },
      500,
    );
    await until(() => existsSync(pidFile), 'the grandchild pid');
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    await until(() => !isAlive(grandchild), 'the grandchild to be stopped', 5_000);
  });

  it('on close stops the server and everything in its process group', async () => {
    const dir = await makeTempDir('warren-mcp-group-');
    const pidFile = join(dir, 'grandchild.pid');
    const everything = everythingServer();
    const connection = await connect({
      command: 'bash',
      args: [
        '-c',
        `sleep 300 & echo $! > ${pidFile}; exec "${everything.command}" "${everything.args![0]}" stdio`,
      ],
    });
    const pid = connection.pid!;
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(isAlive(grandchild)).toBe(true);
    await connection.close();
    expect(isAlive(pid)).toBe(false);
    await until(() => !isAlive(grandchild), 'the grandchild to be stopped', 5_000);
  });

  it('gives an error result when the server dies mid-call, restarts it once, then marks it failed', async () => {
    const connection = await connect(everythingServer());
    const slow = toolNamed(connection, 'mcp__srv__trigger-long-running-operation');
    const echo = toolNamed(connection, 'mcp__srv__echo');

    const killMidCall = async () => {
      const pid = connection.pid!;
      const pending = call(slow, { duration: 10, steps: 10 });
      await delay(200);
      process.kill(pid, 'SIGKILL');
      return pending;
    };

    const first = await killMidCall();
    expect(isErrorOutput(first)).toBe(true);
    expect(outputText(first)).toMatch(/stopped during the call \(it was killed by SIGKILL/);
    expect(outputText(first)).toMatch(/It will be restarted on the next call/);
    expect(connection.status).toBe('crashed');

    const firstPid = connection.pid;
    expect(await call(echo, { message: 'back' })).toBe('Echo: back');
    expect(connection.pid).not.toBe(firstPid);

    const second = await killMidCall();
    expect(outputText(second)).toMatch(/restarted once already, so it is now marked failed/);
    expect(connection.status).toBe('failed');
    const after = await call(echo, { message: 'again' });
    expect(isErrorOutput(after)).toBe(true);
    expect(outputText(after)).toMatch(/^The MCP server "srv" is not available/);
  });

  it('sends notifications/cancelled when a call is cancelled', async () => {
    let sawCancel: () => void = () => {};
    const cancelled = new Promise<void>((resolve) => {
      sawCancel = resolve;
    });
    const server = new McpServer({ name: 'waits', version: '1.0.0' });
    server.registerTool('wait', { description: 'Waits until cancelled' }, async (extra) => {
      await new Promise<void>((resolve) => {
        extra.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      sawCancel();
      return { content: [{ type: 'text', text: 'stopped' }] };
    });
    const connection = await connect(server);
    const controller = new AbortController();
    const pending = call(toolNamed(connection, 'mcp__srv__wait'), {}, controller.signal).catch(
      (error: unknown) => error,
    );
    await delay(50);
    controller.abort();
    await cancelled;
    expect(await pending).toBeInstanceOf(Error);
  });
});
