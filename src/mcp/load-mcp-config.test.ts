// The session's servers from files: what starts, what waits for trust, and the errors a broken
// file gets (file:line:column, the field, the fix).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { configErrorOf } from '../testing/caught-errors.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { sha256Of } from './config-file.js';
import { loadMcpConfig } from './load-mcp-config.js';
import { mcpTrust, recordTrust, trustOfContent } from './trust-store.js';

let project: string;
let store: string;

beforeEach(async () => {
  project = await makeTempDir('warren-mcp-project-');
  store = join(await makeTempDir('warren-mcp-home-'), 'trusted.json');
});

const projectFile = (text: string) => writeFile(join(project, '.mcp.json'), text);
const load = (configFiles: string[] = [], trustProject = false, env: NodeJS.ProcessEnv = {}) =>
  loadMcpConfig({
    cwd: project,
    configFiles,
    trust: mcpTrust({ trustProject, storePath: store }),
    env,
  });

describe('MCP config files', () => {
  it('do not start a project .mcp.json that is not trusted, and say how to allow it', async () => {
    await projectFile('{"mcpServers": {"fs": {"command": "x"}, "web": {"url": "https://x.test"}}}');
    const loaded = await load();
    expect(loaded.servers).toEqual([]);
    expect(loaded.warnings).toEqual([
      'MCP servers of .mcp.json ("fs", "web") not started: it is not trusted (trust this version with `warren trust .mcp.json`, or run with --trust-project)',
    ]);
  });

  it('start a project .mcp.json trusted at its content, and stop again once it changes', async () => {
    const text = '{"mcpServers": {"fs": {"command": "x"}}}';
    await projectFile(text);
    await recordTrust(store, join(project, '.mcp.json'), sha256Of(text));
    expect((await load()).servers.map((server) => server.name)).toEqual(['fs']);

    await projectFile('{"mcpServers": {"fs": {"command": "something-else"}}}');
    const changed = await load();
    expect(changed.servers).toEqual([]);
    expect(changed.warnings[0]).toContain('it changed since it was trusted');
    expect(trustOfContent(store, join(project, '.mcp.json'), sha256Of(text))).toBe('trusted');
  });

  it('start the project file with --trust-project, and --mcp-config files always; a later file wins a name', async () => {
    await projectFile('{"mcpServers": {"a": {"command": "from-project"}, "b": {"command": "b"}}}');
    const given = join(project, 'extra.json');
    await writeFile(given, '{"mcpServers": {"a": {"command": "from-flag"}}}');
    const loaded = await load([given], true);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.servers.map(({ name, config }) => [name, config])).toEqual([
      ['a', expect.objectContaining({ command: 'from-flag' })],
      ['b', expect.objectContaining({ command: 'b' })],
    ]);
  });

  it(`expand \${VAR} from the environment of the run`, async () => {
    const given = join(project, 'env.json');
    await writeFile(
      given,
      `{"mcpServers": {"a": {"command": "\${TOOL_BIN:-npx}", "args": ["\${PKG}"]}}}`,
    );
    const [server] = (await load([given], false, { PKG: 'pkg' })).servers;
    expect(server?.config).toMatchObject({ command: 'npx', args: ['pkg'] });
  });

  it('name file:line:column of a JSON mistake', async () => {
    const given = join(project, 'broken.json');
    await writeFile(given, '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}');
    const error = await configErrorOf(load([given]));
    expect(error.where).toBe(`${given}:3:26`);
    expect(error.problem).toMatch(/^not valid JSON/);
  });

  it('name the line of a wrong field and the shape to use', async () => {
    const given = join(project, 'wrong.json');
    await writeFile(
      given,
      '{\n  "mcpServers": {\n    "a": {\n      "command": "x",\n      "env": {"K": 1}\n    }\n  }\n}',
    );
    const error = await configErrorOf(load([given]));
    expect(error.where).toBe(`${given}:5:15`);
    expect(error.problem).toContain('field "env.K"');
    expect(error.fix).toContain('{"command": "npx"');
  });

  it('refuse a file without mcpServers, and one that does not exist', async () => {
    const given = join(project, 'empty.json');
    await writeFile(given, '{"servers": {}}');
    expect((await configErrorOf(load([given]))).problem).toBe('has no "mcpServers" object');
    expect((await configErrorOf(load([join(project, 'nope.json')]))).problem).toBe('no such file');
  });

  it('name an unset variable without showing any value', async () => {
    const given = join(project, 'secret.json');
    await writeFile(
      given,
      `{"mcpServers": {"a": {"type": "http", "url": "https://x.test", "headers": {"Authorization": "Bearer \${API_TOKEN}"}}}}`,
    );
    const error = await configErrorOf(load([given], false, { OTHER_TOKEN: 'do-not-print-me' }));
    expect(error.message).toContain(`\${API_TOKEN}`);
    expect(error.message).not.toContain('do-not-print-me');
  });

  it('refuse a trust record that is not one, saying how to fix it', async () => {
    await projectFile('{"mcpServers": {}}');
    await writeFile(store, 'not json');
    const error = await configErrorOf(load());
    expect(error.where).toBe(store);
    expect(error.fix).toContain('warren trust');
  });
});
