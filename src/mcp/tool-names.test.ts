// MCP tool names as providers accept them, whatever a server calls its tools.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpToolNames, serverPrefix, TOOL_NAME } from './tool-names.js';

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool> when both parts are already safe', () => {
    expect(mcpToolNames('fs', ['read_file', 'list-dir'])).toEqual([
      'mcp__fs__read_file',
      'mcp__fs__list-dir',
    ]);
  });

  it('replace characters providers refuse, and mark the change with a stable hash', () => {
    const [name] = mcpToolNames('fs', ['read.file/v2']);
    expect(name).toMatch(/^mcp__fs__read_file_v2_[0-9a-f]{6}$/);
    expect(mcpToolNames('fs', ['read.file/v2'])).toEqual([name]);
  });

  it('keep two tools apart that would otherwise get the same name', () => {
    const names = mcpToolNames('fs', ['a.b', 'a_b', 'a-b']);
    expect(new Set(names).size).toBe(3);
    expect(names[1]).toBe('mcp__fs__a_b');
  });

  it('cut a long name to 64 characters, still unique', () => {
    const long = 'x'.repeat(100);
    const names = mcpToolNames('server', [long, `${long}y`]);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(64);
    expect(names[0]).not.toBe(names[1]);
  });

  it('squeeze "__" and odd characters out of the server part', () => {
    expect(serverPrefix('my__server')).toBe('mcp__my_server__');
    expect(serverPrefix('git.hub')).toBe('mcp__git_hub__');
  });

  it('always match the provider rule, for any server and tool names', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.array(fc.string({ maxLength: 200 }), { maxLength: 8 }),
        (server, tools) => {
          const names = mcpToolNames(server, tools);
          for (const name of names) expect(name).toMatch(TOOL_NAME);
          expect(new Set(names).size).toBe(names.length);
          for (const name of names) expect(name.startsWith(serverPrefix(server))).toBe(true);
        },
      ),
    );
  });
});
