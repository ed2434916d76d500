import { describe, expect, it } from 'vitest';
import { normalizeTools, parseToolRule, unknownToolWarnings } from './normalize-tools.js';

const fromFile = (
  tools?: Parameters<typeof normalizeTools>[0]['tools'],
  disallowedTools?: typeof tools,
) => normalizeTools({ tools, disallowedTools, dropUnknown: true });

describe('normalizeTools', () => {
  it('leaves tools undefined (inherit all) when the field is absent', () => {
    expect(fromFile().tools).toBeUndefined();
  });

  it('reads an empty list as no tools at all', () => {
    const result = fromFile([]);
    expect(result.tools).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('reads a comma string and a YAML list alike', () => {
    expect(fromFile('Read, Grep, Glob').tools).toEqual(['Read', 'Grep', 'Glob']);
    expect(fromFile(['Read', 'Grep', 'Glob']).tools).toEqual(['Read', 'Grep', 'Glob']);
  });

  it('maps Claude Code and opencode names to warren tools and notes the renames', () => {
    const result = fromFile('read, MultiEdit, LS, list, patch, Task, bash');
    expect(result.tools).toEqual(['Read', 'Edit', 'Glob', 'Agent', 'Bash']);
    expect(result.notes[0]?.message).toContain('`MultiEdit` as `Edit`');
    expect(result.notes[0]?.message).toContain('`Task` as `Agent`');
  });

  it('drops tools warren lacks and non-tools, noting them and listing them for the run', () => {
    const result = fromFile('Read, WebSearch, NotebookEdit, pied-piper, subagent-catalog:search');
    expect(result.tools).toEqual(['Read']);
    expect(result.warnings).toEqual([]);
    expect(result.notes).toEqual([
      {
        field: 'tools',
        message:
          'dropped `WebSearch`, `NotebookEdit`, `pied-piper`, `subagent-catalog:search`: warren has no such tool',
      },
    ]);
    expect(result.unknownTools).toEqual([
      'WebSearch',
      'NotebookEdit',
      'pied-piper',
      'subagent-catalog:search',
    ]);
  });

  it('knows TodoWrite and WebFetch', () => {
    expect(fromFile('TodoWrite, webfetch, WebFetch(domain:example.com)').tools).toEqual([
      'TodoWrite',
      'WebFetch',
      'WebFetch(domain:example.com)',
    ]);
  });

  it("reads Gemini CLI's web_fetch and write_todos as WebFetch and TodoWrite, and knows Skill", () => {
    const result = fromFile('web_fetch, write_todos, activate_skill, Skill');
    expect(result.tools).toEqual(['WebFetch', 'TodoWrite', 'Skill']);
    expect(result.unknownTools).toEqual([]);
  });

  it('warns that an agent whose every tool was dropped gets no tools', () => {
    const result = fromFile('WebSearch, NotebookEdit');
    expect(result.tools).toEqual([]);
    expect(result.warnings.map((w) => w.message).join('\n')).toContain('gets no tools at all');
  });

  it('warns once per missing tool, naming every definition that lists it', () => {
    const warnings = unknownToolWarnings([
      { name: 'researcher', unknownTools: ['WebSearch', 'NotebookEdit'] },
      { name: 'writer', unknownTools: ['WebSearch'] },
      { name: 'reviewer' },
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warren has no tool `WebSearch`: 2 agents list it \(researcher, writer\) and run without it\. warren's tools: Read, .*TodoWrite, WebFetch/,
      ),
      expect.stringMatching(
        /^warren has no tool `NotebookEdit`: agent researcher lists it and runs without it\./,
      ),
    ]);
  });

  it('keeps MCP tool names and server patterns as written', () => {
    expect(
      fromFile('mcp__context7__resolve-library-id, mcp__prompt-to-asset, mcp__fs__*').tools,
    ).toEqual(['mcp__context7__resolve-library-id', 'mcp__prompt-to-asset', 'mcp__fs__*']);
  });

  it('turns Task(x) / Agent(a, b) into Agent plus the spawnable types', () => {
    const result = fromFile([
      'Read',
      'Task(gap-detector)',
      'Task(code-analyzer)',
      'Agent(worker, researcher)',
    ]);
    expect(result.tools).toEqual(['Read', 'Agent']);
    expect(result.spawnableAgents).toEqual([
      'gap-detector',
      'code-analyzer',
      'worker',
      'researcher',
    ]);
  });

  it('does not split a comma string inside parentheses', () => {
    const result = fromFile('Agent(worker, researcher), Bash(git add:*, git commit:*)');
    expect(result.tools).toEqual(['Agent', 'Bash(git add:*, git commit:*)']);
    expect(result.spawnableAgents).toEqual(['worker', 'researcher']);
  });

  it('lets a bare Agent win over Agent(x), with a warning', () => {
    const result = fromFile('Agent, Agent(worker)');
    expect(result.spawnableAgents).toBeUndefined();
    expect(result.warnings[0]?.message).toContain('bare `Agent` wins');
  });

  it('keeps Bash patterns in disallowedTools and splits Agent(a, b) into one rule per type', () => {
    const result = fromFile(undefined, ['Bash(rm -rf*)', 'Bash(git push*)', 'Task(a, b)']);
    expect(result.disallowedTools).toEqual([
      'Bash(rm -rf*)',
      'Bash(git push*)',
      'Agent(a)',
      'Agent(b)',
    ]);
  });

  it('reads an opencode map as inherit-all minus the tools switched off', () => {
    const result = fromFile({ read: true, write: false, edit: false, bash: true });
    expect(result.tools).toBeUndefined();
    expect(result.disallowedTools).toEqual(['Write', 'Edit']);
    expect(result.notes[0]?.message).toContain('every tool stays available except write, edit');
  });

  it('keeps unknown names for SDK definitions, whose tools may be custom', () => {
    const result = normalizeTools({ tools: ['Read', 'lookup_order'], dropUnknown: false });
    expect(result.tools).toEqual(['Read', 'lookup_order']);
    expect(result.warnings).toEqual([]);
  });

  it('reads `*` as every tool', () => {
    expect(fromFile('*').tools).toBeUndefined();
  });
});

describe('parseToolRule', () => {
  it('splits a rule into tool name and specifier', () => {
    expect(parseToolRule('Bash(npm test:*)')).toEqual({
      toolName: 'Bash',
      specifier: 'npm test:*',
    });
    expect(parseToolRule('Read')).toEqual({ toolName: 'Read' });
    expect(parseToolRule('mcp__srv__tool')).toEqual({ toolName: 'mcp__srv__tool' });
  });

  it('returns undefined for something that is not a rule', () => {
    expect(parseToolRule('subagent-catalog:search')).toBeUndefined();
  });
});
