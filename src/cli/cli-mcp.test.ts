// MCP from the command line, as a person uses it: --mcp-config, a project .mcp.json behind the
// trust gate, `warren trust`, `warren mcp list|tools`, warnings on stderr, no secret printed,
// and no server left running after SIGTERM. Runs the built CLI (`npm test` builds first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { type CliRun, homeEnv, jsonLines, runWarren, WARREN_BIN } from '../testing/cli-process.js';
import { everythingServer } from '../testing/mcp-servers.js';
import { isAlive, isGoneWithin } from '../testing/process-liveness.js';
import { makeTempDir } from '../testing/temp-dir.js';

let home: string;
let project: string;

beforeEach(async () => {
  home = await makeTempDir('warren-mcp-home-');
  project = await makeTempDir('warren-mcp-cli-');
});

const env = () => homeEnv(home);
const warren = (args: string[], extra: Record<string, string> = {}): Promise<CliRun> =>
  runWarren(args, { env: { ...env(), ...extra }, cwd: project });

const everything = everythingServer();

/** Writes an MCP config of `servers` to `name` in the project; returns its path. */
async function writeServers(name: string, servers: Record<string, unknown>): Promise<string> {
  const file = join(project, name);
  await writeFile(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** `warren -p` on the scripted model of `script`. */
const runScript = (script: string, ...extra: string[]) =>
  warren(['-p', 'x', '--model', `scripted:${script}`, ...extra]);

/** A scripted model that calls one MCP tool, then answers with what it got. */
async function scriptCalling(tool: string, input: object, extraTurns = ''): Promise<string> {
  const script = join(project, 'script.yaml');
  await writeFile(
    script,
    [
      'turns:',
      '  - tool_calls:',
      `      - name: ${tool}`,
      `        input: ${JSON.stringify(input)}`,
      extraTurns,
      '  - text: finished',
    ].join('\n'),
  );
  return script;
}

describe('warren -p with MCP servers', () => {
  it('uses the servers of --mcp-config files, trusted without a record', async () => {
    const config = await writeServers('servers.json', { e: everything });
    const script = await scriptCalling('mcp__e__echo', { message: 'over stdio' });
    const run = await runScript(script, '--mcp-config', config, '--output-format', 'stream-json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0].tools).toContain('mcp__e__echo');
    expect(lines).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        tool_name: 'mcp__e__echo',
        content: 'Echo: over stdio',
      }),
    );
  });

  it('leaves a project .mcp.json alone until it is trusted, and says so in one stderr line', async () => {
    await writeServers('.mcp.json', { e: everything });
    const script = await scriptCalling('mcp__e__echo', { message: 'hi' });
    const untrusted = await runScript(script);
    expect(untrusted.stderr).toBe(
      `warren: untrusted project: .mcp.json mcpServers.e would start MCP server "e": \`${everything.command} ${everything.args!.join(' ')}\`; not applied: trust the project with \`warren trust\` (it lists everything first), or run with --trust-project\n`,
    );

    const once = await runScript(script, '--trust-project', '--output-format', 'json');
    expect(once.stderr).toBe('');
    expect(JSON.parse(once.stdout).is_error).toBe(false);

    const trust = await warren(['trust']);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain('Trusted 1 item(s)');
    expect(trust.stdout).toContain(`command: ${everything.command}`);
    expect(trust.stdout).toContain(`args: ${JSON.stringify(everything.args)}`);
    const record = JSON.parse(
      await readFile(join(home, '.warren', 'trusted-projects.json'), 'utf8'),
    );
    expect(Object.keys(record.projects)).toEqual([project]);

    const trusted = await runScript(script);
    expect(trusted.stderr).toBe('');
    expect(trusted.stdout).toBe('finished\n');

    await writeServers('.mcp.json', { e: everything, more: everything });
    const edited = await runScript(script);
    expect(edited.stderr).toContain(
      'warren: project trust withdrawn: .mcp.json mcpServers.more is new since the project was trusted',
    );
  });

  it('exits 2 for a broken config file, naming file:line:column and the fix', async () => {
    const config = join(project, 'broken.json');
    await writeFile(config, '{"mcpServers": {\n  "e": {"command": ["node"]}\n}}');
    const run = await runScript('nothing.yaml', '--mcp-config', config);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^warren: ${config}:2:9: server "e" field "command": .*\\(a server is \\{"command"`,
      ),
    );
  });

  it('never prints an environment value or a header of a server', async () => {
    const config = await writeServers('secret.json', {
      remote: {
        type: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: `Bearer \${API_TOKEN}` },
      },
      local: { command: 'warren-no-such-server', env: { TOKEN: `\${API_TOKEN}` } },
    });
    const secret = { API_TOKEN: 'tok-very-secret-123' };
    const list = await warren(['mcp', 'list', '--mcp-config', config], secret);
    const json = await warren(['mcp', 'list', '--json', '--mcp-config', config], secret);
    const script = await scriptCalling('Read', { file_path: 'x' });
    const run = await warren(
      ['-p', 'x', '--model', `scripted:${script}`, '--mcp-config', config],
      secret,
    );
    for (const output of [list, json, run]) {
      expect(`${output.stdout}${output.stderr}`).not.toContain('tok-very-secret-123');
    }
    expect(list.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(2);
  });
});

describe('warren mcp', () => {
  it('lists servers with transport, status and tool count, untrusted ones included', async () => {
    await writeServers('.mcp.json', { project: everything });
    const config = await writeServers('servers.json', {
      e: everything,
      gone: { command: 'warren-no-such-server' },
    });
    const run = await warren(['mcp', 'list', '--json', '--mcp-config', config]);
    expect(run.code).toBe(1);
    const { servers } = JSON.parse(run.stdout);
    expect(servers).toEqual([
      expect.objectContaining({
        name: 'e',
        transport: 'stdio',
        status: 'connected',
        tools: expect.any(Number),
      }),
      expect.objectContaining({
        name: 'gone',
        status: 'failed',
        error: 'the command "warren-no-such-server" was not found',
      }),
      expect.objectContaining({ name: 'project', status: 'untrusted', source: '.mcp.json' }),
    ]);
    expect(servers[0].tools).toBeGreaterThan(10);

    const text = await warren(['mcp', '--mcp-config', config]);
    expect(text.stdout).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+TOOLS\s+SOURCE\s+TARGET\n/);
    expect(text.stdout).toMatch(/\ne\s+stdio\s+connected\s+\d+\s/);
  });

  it("lists one server's tools with their names, read-only flag and schema", async () => {
    const config = await writeServers('servers.json', { e: everything });
    const run = await warren(['mcp', 'tools', 'e', '--json', '--mcp-config', config]);
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout);
    expect(listing.tools).toContainEqual(
      expect.objectContaining({
        name: 'mcp__e__echo',
        server_tool: 'echo',
        read_only: true,
        input_schema: expect.objectContaining({ required: ['message'] }),
      }),
    );
    const unknown = await warren(['mcp', 'tools', 'nope', '--mcp-config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('warren: mcp tools nope: no such MCP server (configured: e)\n');
  });
});

describe('SIGTERM during a run', () => {
  it('leaves no MCP server process behind', async () => {
    const pidFile = join(project, 'server.pid');
    const config = await writeServers('servers.json', {
      e: {
        command: 'bash',
        args: [
          '-c',
          `echo $$ > ${pidFile}; exec "${everything.command}" "${everything.args![0]}" stdio`,
        ],
      },
    });
    const script = await scriptCalling(
      'mcp__e__echo',
      { message: 'started' },
      '  - match: { last_tool_result: "Echo" }\n    text: never\n    delay_ms: 60000',
    );
    const child = spawn(
      process.execPath,
      [WARREN_BIN, '-p', 'x', '--model', `scripted:${script}`, '--mcp-config', config],
      { cwd: project, env: { PATH: process.env.PATH, ...env() } },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (let i = 0; i < 300 && !existsSync(pidFile); i++) await delay(50);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    await delay(500);
    child.kill('SIGTERM');
    await exited;
    expect(stderr).not.toContain('internal error');
    expect(await isGoneWithin(pid)).toBe(true);
  });
});

describe('the .mcp.json of the repository root', () => {
  it('is read from a folder inside the repository, named as `warren trust` takes it', async () => {
    await mkdir(join(project, '.git'));
    await writeServers('.mcp.json', { root: { command: 'x' } });
    const inside = join(project, 'packages', 'web');
    await mkdir(inside, { recursive: true });
    const run = await runWarren(['mcp', 'list', '--json'], { env: env(), cwd: inside });
    expect(JSON.parse(run.stdout).servers).toEqual([
      expect.objectContaining({ name: 'root', status: 'untrusted', source: '../../.mcp.json' }),
    ]);
    const trusted = await runWarren(['trust'], { env: env(), cwd: inside });
    expect(trusted).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^1\. \.\.\/\.\.\/\.mcp\.json mcpServers\.root: start MCP server "root"/m,
      ),
    });
  });
});
