import { describe, expect, it } from 'vitest';
import { readOpencodePermission } from './opencode-permission.js';

describe('readOpencodePermission', () => {
  it('switches off a tool denied outright; `edit` covers Write too', () => {
    const read = readOpencodePermission({
      read: 'allow',
      bash: 'deny',
      edit: 'deny',
      task: 'deny',
    });
    expect(read.deniedTools).toEqual(['Bash', 'Edit', 'Write', 'Agent']);
    expect(read.rules).toEqual([]);
    expect(read.notes[0]).toBe('opencode `permission`: switches off Bash, Edit, Write, Agent');
  });

  it("reads an MCP server's key (`github_*`) as a rule for all of that server's tools", () => {
    const read = readOpencodePermission({ 'github_*': 'deny', 'jira-cloud_*': 'ask' });
    expect(read.deniedTools).toEqual(['mcp__github']);
    expect(read.rules).toEqual([
      { behavior: 'ask', rule: 'mcp__jira-cloud', field: 'permission.jira-cloud_*' },
    ]);
    expect(read.warnings).toEqual([]);
  });

  it('reads a per-command map: `"git push": ask` asks before git push with any arguments', () => {
    const read = readOpencodePermission({ bash: { 'git push': 'ask', 'rm -rf *': 'deny' } });
    expect(read.rules).toEqual([
      { behavior: 'ask', rule: 'Bash(git push:*)', field: 'permission.bash' },
      { behavior: 'deny', rule: 'Bash(rm -rf *)', field: 'permission.bash' },
    ]);
  });

  it('lets a later entry win over an earlier one it also matches, as opencode does', () => {
    const read = readOpencodePermission({
      bash: { '*': 'deny', 'git *': 'ask', './scripts/validate.sh': 'allow' },
    });
    expect(read.deniedTools).toEqual([]);
    expect(read.rules).toEqual([
      {
        behavior: 'deny',
        rule: 'Bash',
        except: ['Bash(git *)', 'Bash(./scripts/validate.sh)'],
        field: 'permission.bash',
      },
      { behavior: 'ask', rule: 'Bash(git *)', field: 'permission.bash' },
    ]);
    // A catch-all written last overrides what came before it.
    expect(readOpencodePermission({ bash: { 'uv *': 'allow', '*': 'ask' } }).rules).toEqual([
      { behavior: 'ask', rule: 'Bash', field: 'permission.bash' },
    ]);
  });

  it('reads `task` patterns as the agent types the Agent tool may start', () => {
    const read = readOpencodePermission({ task: { '*': 'deny', contextscout: 'allow' } });
    expect(read.rules).toEqual([
      {
        behavior: 'deny',
        rule: 'Agent',
        except: ['Agent(contextscout)'],
        field: 'permission.task',
      },
    ]);
  });

  it('reads `edit` patterns as paths of Edit and Write', () => {
    expect(readOpencodePermission({ edit: { '**/*.env*': 'deny' } }).rules).toEqual([
      { behavior: 'deny', rule: 'Edit(**/*.env*)', field: 'permission.edit' },
      { behavior: 'deny', rule: 'Write(**/*.env*)', field: 'permission.edit' },
    ]);
  });

  it('reads one action for everything, and a `*` key under later tool keys', () => {
    expect(readOpencodePermission('deny').deniedTools).toEqual(['*']);
    expect(readOpencodePermission({ '*': 'ask', read: 'allow' }).rules).toEqual([
      { behavior: 'ask', rule: '*', except: ['Read'], field: 'permission.*' },
    ]);
  });

  it('reads an action it does not know as ask, with a warning naming the entry', () => {
    const read = readOpencodePermission({ bash: { 'git *': 'block' }, webfetch: true });
    expect(read.rules.map((rule) => [rule.behavior, rule.rule])).toEqual([
      ['ask', 'Bash(git *)'],
      ['ask', 'WebFetch'],
    ]);
    expect(read.warnings).toEqual([
      '`permission.bash."git *"`: "block" is not an action (write allow, ask or deny); read as ask',
      '`permission.webfetch`: true is not an action (write allow, ask or deny); read as ask',
    ]);
  });

  it('widens a pattern warren cannot match to the whole tool, never narrows it', () => {
    const read = readOpencodePermission({ bash: { 'npm:*x': 'deny' } });
    expect(read.deniedTools).toEqual(['Bash']);
    expect(read.warnings[0]).toContain(
      'cannot match the pattern "npm:*x", so the deny covers all of Bash',
    );
  });

  it('notes keys warren has no use for and warns about keys opencode does not have', () => {
    const read = readOpencodePermission({
      doom_loop: 'deny',
      external_directory: 'deny',
      bsh: 'deny',
      bash: 'deny',
    });
    expect(read.notes).toEqual([
      'opencode `permission`: switches off Bash',
      '`permission` keys ignored: doom_loop (warren has no doom-loop check); external_directory (warren asks before any path outside the allowed directories anyway)',
    ]);
    expect(read.warnings).toEqual([
      "`permission.bsh`: opencode has no such permission key; ignored (for an MCP server's tools write `<server>_*`)",
    ]);
  });
});
