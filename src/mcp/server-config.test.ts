// Server configs in the shapes real files use, and the errors a mistake gets.
import { describe, expect, it } from 'vitest';
import { thrownConfigError } from '../testing/caught-errors.js';
import { expandVariables } from './expand-env.js';
import { parseServerConfig, serverConfigOf, serverSpecsOf } from './server-config.js';

const location = { at: (path: readonly (string | number)[]) => `cfg:${path.join('.')}` };
const parse = (raw: unknown, env?: NodeJS.ProcessEnv) =>
  parseServerConfig('srv', raw, { location, env });

describe(`expanding \${VAR}`, () => {
  it('takes the value, or the default when unset or empty', () => {
    const env = { A: 'a', EMPTY: '' };
    expect(expandVariables(`\${A}-\${B:-b}-\${EMPTY:-e}-\${C:-}`, env)).toBe('a-b-e-');
  });

  it('refuses an unset variable without a default, naming the variable', () => {
    expect(() => expandVariables(`Bearer \${TOKEN}`, {})).toThrow(`\${TOKEN}`);
  });
});

describe('an MCP server config', () => {
  it('is a stdio server with a command, its strings expanded from the environment', () => {
    expect(
      parse(
        { command: 'npx', args: ['-y', `\${PKG}`], env: { KEY: `\${KEY:-none}` }, cwd: 'sub' },
        { PKG: 'server-x' },
      ),
    ).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'server-x'],
      env: { KEY: 'none' },
      cwd: 'sub',
    });
  });

  it('is Streamable HTTP with type http, legacy SSE with type sse, and http-then-sse without a type', () => {
    expect(parse({ type: 'http', url: 'https://x.test/mcp', headers: { A: 'b' } })).toEqual({
      transport: 'http',
      url: 'https://x.test/mcp',
      headers: { A: 'b' },
      sseFallback: false,
    });
    expect(parse({ type: 'sse', url: 'https://x.test/sse' })).toMatchObject({ transport: 'sse' });
    expect(parse({ url: 'https://x.test/mcp' })).toMatchObject({
      transport: 'http',
      sseFallback: true,
    });
  });

  it('keeps keys of other clients (disabled, autoApprove) out of the way', () => {
    expect(parse({ command: 'x', disabled: false, autoApprove: [] })).toMatchObject({
      transport: 'stdio',
    });
  });

  it('names the field and the fix for a mistake', () => {
    const wrongArgs = thrownConfigError(() => parse({ command: 'x', args: 'a b' }));
    expect(wrongArgs.where).toBe('cfg:srv.args');
    expect(wrongArgs.message).toContain('field "args"');
    expect(wrongArgs.fix).toContain('"command"');

    expect(thrownConfigError(() => parse({ type: 'ws', url: 'ws://x' })).message).toMatch(
      /type "ws" is not supported/,
    );
    expect(thrownConfigError(() => parse({ args: [] })).message).toContain(
      'neither "command" nor "url"',
    );
    expect(
      thrownConfigError(() => parse({ type: 'http', url: 'file:///etc/passwd' })).message,
    ).toContain('not an http(s) address');
    expect(
      thrownConfigError(() => parseServerConfig('bad name!', {}, { location })).message,
    ).toContain('cannot be used');
  });

  it('names an unset variable but never shows a value of the environment', () => {
    const error = thrownConfigError(() =>
      parse(
        { type: 'http', url: 'https://x.test', headers: { Authorization: `Bearer \${TOKEN}` } },
        { OTHER: 'sekrit-value' },
      ),
    );
    expect(error.where).toBe('cfg:srv.headers.Authorization');
    expect(error.message).toContain(`\${TOKEN}`);
    expect(error.fix).toContain(`\${TOKEN:-value}`);
    expect(error.message).not.toContain('sekrit');
  });

  it('from the library option, takes an McpServer object itself', () => {
    const instance = { connect: async () => {} };
    const [spec] = serverSpecsOf({ mine: instance });
    expect(spec).toMatchObject({ name: 'mine', config: { transport: 'in-process', instance } });
    expect(thrownConfigError(() => serverSpecsOf({ x: { command: '' } })).where).toBe(
      'mcpServers.x.command',
    );
  });

  it('round-trips through the input shape the CLI hands to query()', () => {
    for (const raw of [
      { command: 'node', args: ['s.js'], env: { A: '1' }, cwd: 'x' },
      { type: 'http', url: 'https://x.test/mcp', headers: {} },
      { url: 'https://x.test/mcp', headers: {} },
      { type: 'sse', url: 'https://x.test/sse', headers: {} },
    ]) {
      const resolved = parse(raw);
      expect(parse(serverConfigOf(resolved))).toEqual(resolved);
    }
  });
});
