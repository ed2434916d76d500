import { describe, expect, it } from 'vitest';
import { namesProtected, protectedComponent, protectedInCommand } from './protected-paths.js';

describe('protectedComponent', () => {
  it.each([
    ['.claude/agents/x.md', '.claude'],
    ['a/b/.opencode/agent/x.md', '.opencode'],
    ['.MCP.JSON', '.mcp.json'],
    ['docs/Agents.md', 'AGENTS.md'],
    ['.git', '.git'],
  ])('finds the protected component of %s', (relativePath, name) => {
    expect(protectedComponent(relativePath)?.name).toBe(name);
  });

  it.each(['src/a.ts', 'claude.md.bak', '.claudeignore', 'my.claude/x', 'agents/x.md'])(
    'finds none in %s',
    (relativePath) => {
      expect(protectedComponent(relativePath)).toBeUndefined();
    },
  );
});

describe('protectedInCommand', () => {
  it.each([
    ['echo x > .claude/agents/a.md', '.claude'],
    ['echo x >.cl""aude/a.md', '.claude'],
    ["cp a '.mcp.json'", '.mcp.json'],
    ['tee -a AGENTS.md', 'AGENTS.md'],
    ['mv x sub\\/CLAUDE.md', 'CLAUDE.md'],
    ['git config --file=.git/config core.hooksPath x', '.git'],
  ])('sees the protected path in %s', (command, name) => {
    expect(protectedInCommand(command)?.name).toBe(name);
  });

  it('sees none in a command that does not mention one', () => {
    expect(protectedInCommand('npm test && echo done > out.txt')).toBeUndefined();
  });
});

describe('namesProtected', () => {
  const claude = { name: '.claude', holds: '' };

  it('is true for a rule that names the protected component', () => {
    expect(namesProtected('.claude/**', claude)).toBe(true);
    expect(namesProtected('./.Claude/agents/x.md', claude)).toBe(true);
    expect(namesProtected('cp a .claude/agents/', claude)).toBe(true);
  });

  it('is false for rules that only match it by a wildcard', () => {
    expect(namesProtected(undefined, claude)).toBe(false);
    expect(namesProtected('**', claude)).toBe(false);
    expect(namesProtected('.clau*/**', claude)).toBe(false);
  });
});
