import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { thrownConfigError } from '../testing/caught-errors.js';
import {
  findDenyingRule,
  isAllowedByRules,
  type PermissionTarget,
  parsePermissionRule,
  parseRuleList,
  suggestRules,
} from './permission-rule.js';

const cwd = '/work/project';

function rules(text: string) {
  return parseRuleList(text, '--allowed-tools');
}

function allows(ruleText: string, toolName: string, subject?: string): boolean {
  return isAllowedByRules(rules(ruleText), { toolName, subject, cwd });
}

function denies(ruleText: string, toolName: string, subject?: string): string | undefined {
  return findDenyingRule(rules(ruleText), { toolName, subject, cwd })?.text;
}

describe('parsing rules', () => {
  it('reads a bare tool name and a tool with a specifier, keeping the source', () => {
    expect(parsePermissionRule('Read', '--allowed-tools')).toEqual({
      text: 'Read',
      toolName: 'Read',
      source: '--allowed-tools',
    });
    expect(parsePermissionRule(' Bash(npm test:*) ', 'x')).toEqual({
      text: 'Bash(npm test:*)',
      toolName: 'Bash',
      specifier: 'npm test:*',
      source: 'x',
    });
  });

  it('keeps commas and spaces inside parentheses with the specifier when splitting a flag', () => {
    const parsed = rules('Bash(git log --format=%h,%s),Read Edit(src/**),, mcp__fs__*');
    expect(parsed.map((rule) => rule.text)).toEqual([
      'Bash(git log --format=%h,%s)',
      'Read',
      'Edit(src/**)',
      'mcp__fs__*',
    ]);
  });

  it('keeps parentheses that belong to the specifier', () => {
    expect(parsePermissionRule('Bash(echo $(date))', 'x').specifier).toBe('echo $(date)');
  });

  it('reads the old Task name as the Agent tool', () => {
    expect(parsePermissionRule('Task(Explore)', 'x').toolName).toBe('Agent');
  });

  it('names the rule, the flag and the fix for a missing closing parenthesis', () => {
    const error = thrownConfigError(() => rules('Read,Bash(npm test'));
    expect(error.where).toBe('--allowed-tools');
    expect(error.message).toBe(
      '--allowed-tools: rule "Bash(npm test" has no closing ")" (close the parentheses at the end of the rule: Bash(npm test))',
    );
  });

  it('refuses text after the closing parenthesis', () => {
    expect(thrownConfigError(() => parsePermissionRule('Bash(ls)x', 'src')).problem).toBe(
      'rule "Bash(ls)x" has text after its closing ")"',
    );
  });

  it('refuses empty parentheses and says how to match every call', () => {
    const error = thrownConfigError(() => parsePermissionRule('Bash()', 'src'));
    expect(error.problem).toBe('rule "Bash()" has empty parentheses');
    expect(error.fix).toContain('write Bash to match every call');
  });

  it('refuses a rule without a tool name', () => {
    expect(thrownConfigError(() => parsePermissionRule('(ls)', 'src')).problem).toBe(
      'rule "(ls)" has no tool name',
    );
  });

  it('refuses an invalid tool name, such as two rules in one settings entry', () => {
    const error = thrownConfigError(() => parsePermissionRule('Read, Write', 'settings allow[0]'));
    expect(error.where).toBe('settings allow[0]');
    expect(error.problem).toBe('rule "Read, Write" has an invalid tool name "Read, Write"');
    expect(error.fix).toContain('one rule per entry');
  });

  it('refuses ":*" anywhere but at the end of a Bash rule', () => {
    const error = thrownConfigError(() => parsePermissionRule('Bash(npm:* test)', 'src'));
    expect(error.problem).toBe('rule "Bash(npm:* test)" has ":*" before the end');
    expect(error.fix).toContain('Bash(npm:*)');
  });
});

describe('tool names', () => {
  it('a bare name matches every call of that tool and no other tool', () => {
    expect(allows('Bash', 'Bash', 'rm -rf /')).toBe(true);
    expect(allows('Read', 'Read', 'src/a.ts')).toBe(true);
    expect(allows('Read', 'ReadMore', 'src/a.ts')).toBe(false);
  });

  it('a specifier never matches a tool that has no permission subject', () => {
    expect(allows('Agent(Explore)', 'Agent')).toBe(false);
    expect(allows('Agent', 'Agent')).toBe(true);
  });

  it('matches MCP tools by wildcard and by server name', () => {
    expect(allows('mcp__fs__*', 'mcp__fs__read_file')).toBe(true);
    expect(allows('mcp__fs__*', 'mcp__git__status')).toBe(false);
    expect(allows('mcp__*', 'mcp__git__status')).toBe(true);
    expect(allows('mcp__*', 'Bash', 'ls')).toBe(false);
    expect(allows('mcp__fs', 'mcp__fs__read_file')).toBe(true);
    expect(allows('mcp__fs', 'mcp__fs2__read_file')).toBe(false);
  });
});

describe('Bash rules', () => {
  it('":*" matches the prefix at a word boundary', () => {
    expect(allows('Bash(npm test:*)', 'Bash', 'npm test')).toBe(true);
    expect(allows('Bash(npm test:*)', 'Bash', 'npm test -- --watch')).toBe(true);
    expect(allows('Bash(npm test:*)', 'Bash', 'npm tests')).toBe(false);
    expect(allows('Bash(npm test:*)', 'Bash', 'npm run test')).toBe(false);
  });

  it('without a wildcard, matches only the exact command', () => {
    expect(allows('Bash(git status)', 'Bash', 'git status')).toBe(true);
    expect(allows('Bash(git status)', 'Bash', 'git status --short')).toBe(false);
  });

  it('"*" is a wildcard, and a trailing " *" also matches the bare command', () => {
    expect(allows('Bash(git * main)', 'Bash', 'git push origin main')).toBe(true);
    expect(allows('Bash(git * main)', 'Bash', 'git push origin dev')).toBe(false);
    expect(allows('Bash(ls *)', 'Bash', 'ls -la')).toBe(true);
    expect(allows('Bash(ls *)', 'Bash', 'ls')).toBe(true);
    expect(allows('Bash(ls *)', 'Bash', 'lsof')).toBe(false);
  });

  it('allows a compound command only when every part is allowed', () => {
    const allowed = 'Bash(npm test:*),Bash(git status)';
    expect(allows(allowed, 'Bash', 'npm test && git status')).toBe(true);
    expect(allows(allowed, 'Bash', 'npm test; git status | npm test')).toBe(true);
    expect(allows(allowed, 'Bash', 'npm test && rm -rf /')).toBe(false);
    expect(allows(allowed, 'Bash', 'npm test; rm -rf /')).toBe(false);
    expect(allows(allowed, 'Bash', 'npm test | sh')).toBe(false);
    expect(allows(allowed, 'Bash', 'npm test & rm -rf /')).toBe(false);
    expect(allows(allowed, 'Bash', 'npm test\nrm -rf /')).toBe(false);
    expect(allows(allowed, 'Bash', '(rm -rf /) && npm test')).toBe(false);
  });

  it('allows a compound command that an exact rule names as a whole', () => {
    expect(allows('Bash(npm ci && npm test)', 'Bash', 'npm ci && npm test')).toBe(true);
  });

  it('does not split at separators inside quotes or at redirections', () => {
    expect(allows('Bash(echo:*)', 'Bash', 'echo "a && b; c | d"')).toBe(true);
    expect(allows('Bash(echo:*)', 'Bash', "echo 'a; b'")).toBe(true);
    expect(allows('Bash(npm test:*)', 'Bash', 'npm test 2>&1')).toBe(true);
    expect(allows('Bash(echo:*)', 'Bash', 'echo a\\; rm x')).toBe(true);
  });

  it('needs an exact rule for a command with command substitution', () => {
    expect(allows('Bash(echo:*)', 'Bash', 'echo $(rm -rf /)')).toBe(false);
    expect(allows('Bash(echo:*)', 'Bash', 'echo `rm -rf /`')).toBe(false);
    expect(allows('Bash(echo:*)', 'Bash', 'echo "$(rm -rf /)"')).toBe(false);
    expect(allows('Bash(echo:*)', 'Bash', "echo '$(not run)'")).toBe(true);
    expect(allows('Bash(echo $(date))', 'Bash', 'echo $(date)')).toBe(true);
    expect(allows('Bash', 'Bash', 'echo $(date)')).toBe(true);
  });

  it('denies a compound command when any part matches a deny rule', () => {
    expect(denies('Bash(rm:*)', 'Bash', 'npm test && rm -rf build')).toBe('Bash(rm:*)');
    expect(denies('Bash(rm:*)', 'Bash', 'ls | xargs echo; rm x')).toBe('Bash(rm:*)');
    expect(denies('Bash(rm:*)', 'Bash', 'echo $(rm -rf /)')).toBe('Bash(rm:*)');
    expect(denies('Bash(rm:*)', 'Bash', '(rm -rf /)')).toBe('Bash(rm:*)');
    expect(denies('Bash(rm:*)', 'Bash', 'FOO=1 BAR=x rm -rf /')).toBe('Bash(rm:*)');
    expect(denies('Bash(rm:*)', 'Bash', 'npm test && rmdir x')).toBeUndefined();
    expect(denies('Bash(git push:*)', 'Bash', 'git status')).toBeUndefined();
  });
});

describe('file rules', () => {
  it('matches gitignore-style globs against the path relative to cwd', () => {
    expect(allows('Edit(src/**)', 'Edit', 'src/a/b.ts')).toBe(true);
    expect(allows('Edit(src/**)', 'Edit', 'test/a.ts')).toBe(false);
    expect(allows('Edit(docs/*.md)', 'Edit', 'docs/a.md')).toBe(true);
    expect(allows('Edit(docs/*.md)', 'Edit', 'docs/old/a.md')).toBe(false);
  });

  it('a pattern without a slash matches a name at any depth', () => {
    expect(allows('Read(*.md)', 'Read', 'README.md')).toBe(true);
    expect(allows('Read(*.md)', 'Read', 'docs/deep/guide.md')).toBe(true);
    expect(allows('Read(*.md)', 'Read', 'docs/guide.txt')).toBe(false);
    expect(denies('Read(.env)', 'Read', 'packages/api/.env')).toBe('Read(.env)');
    expect(denies('Read(.env)', 'Read', '../other/.env')).toBe('Read(.env)');
  });

  it('a pattern that matches a folder matches everything inside it', () => {
    expect(denies('Edit(node_modules)', 'Edit', 'a/node_modules/x/index.js')).toBe(
      'Edit(node_modules)',
    );
    expect(denies('Edit(build/)', 'Edit', 'build/out.js')).toBe('Edit(build/)');
    expect(denies('Edit(build/)', 'Edit', 'build')).toBeUndefined();
  });

  it('does not match folders above cwd by name', () => {
    expect(allows('Read(project)', 'Read', 'src/a.ts')).toBe(false);
    expect(allows('Read(work)', 'Read', 'src/a.ts')).toBe(false);
  });

  it('reads "./x" and "/x" as anchored at cwd, "//x" as absolute and "~/x" as under home', () => {
    expect(allows('Edit(./src/**)', 'Edit', 'src/a.ts')).toBe(true);
    expect(allows('Edit(/src/**)', 'Edit', 'src/a.ts')).toBe(true);
    expect(allows('Edit(/src/**)', 'Edit', 'lib/src/a.ts')).toBe(false);
    expect(allows('Read(//etc/**)', 'Read', '/etc/hosts')).toBe(true);
    expect(allows('Read(//etc/**)', 'Read', 'etc/hosts')).toBe(false);
    const ssh = path.join(homedir(), '.ssh', 'id_rsa');
    expect(denies('Read(~/.ssh/**)', 'Read', ssh)).toBe('Read(~/.ssh/**)');
    expect(denies('Read(~/.ssh/**)', 'Read', '.ssh/id_rsa')).toBeUndefined();
  });

  it('matches a rule that climbs out of cwd with "../"', () => {
    expect(allows('Read(../shared/**)', 'Read', '../shared/x.md')).toBe(true);
    expect(allows('Read(../shared/**)', 'Read', '../other/x.md')).toBe(false);
  });

  it('matches dotfiles with "*"', () => {
    expect(allows('Edit(src/*)', 'Edit', 'src/.eslintrc')).toBe(true);
  });
});

describe('rules for other tools', () => {
  it('match the exact specifier or a "*" glob', () => {
    expect(allows('Agent(Explore)', 'Agent', 'Explore')).toBe(true);
    expect(allows('Agent(Explore)', 'Agent', 'Explorer')).toBe(false);
    expect(allows('WebFetch(domain:*.python.org)', 'WebFetch', 'domain:docs.python.org')).toBe(
      true,
    );
    expect(allows('WebFetch(domain:*.python.org)', 'WebFetch', 'domain:python.org.evil.io')).toBe(
      false,
    );
    expect(allows('Agent(*)', 'Agent', 'anything')).toBe(true);
  });
});

describe('suggested rules', () => {
  const target = (toolName: string, subject: string): PermissionTarget => ({
    toolName,
    subject,
    cwd,
  });

  it('suggest the exact command and its first word as a prefix for Bash', () => {
    expect(suggestRules(target('Bash', 'rm -rf build'))).toEqual({
      exact: 'Bash(rm -rf build)',
      broader: 'Bash(rm:*)',
    });
    expect(suggestRules(target('Bash', 'npm test && rm x'))).toEqual({
      exact: 'Bash(npm test && rm x)',
    });
  });

  it('suggest the file and its folder for file tools, each a rule that matches it', () => {
    const cases = [
      target('Edit', 'src/routes/[id].ts'),
      target('Write', 'README.md'),
      target('Edit', '/etc/app/config.json'),
    ];
    for (const call of cases) {
      const { exact, broader } = suggestRules(call);
      expect(allows(exact, call.toolName, call.subject)).toBe(true);
      if (broader) expect(allows(broader, call.toolName, call.subject)).toBe(true);
    }
    expect(suggestRules(cases[0]!)).toEqual({
      exact: 'Edit(src/routes/\\[id\\].ts)',
      broader: 'Edit(src/routes/**)',
    });
    expect(suggestRules(cases[1]!)).toEqual({ exact: 'Write(./README.md)' });
    expect(allows('Write(./README.md)', 'Write', 'docs/README.md')).toBe(false);
    expect(suggestRules(cases[2]!).broader).toBe('Edit(//etc/app/**)');
  });
});
