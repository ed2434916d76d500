import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from '../../definitions/load-agent-definitions.js';
import { makeTempDir } from '../../testing/temp-dir.js';
import { type AgentsListing, agentsListing, formatAgentsListing } from './agents-listing.js';

let cwd: string;
let home: string;
let listing: AgentsListing;

beforeAll(async () => {
  const root = await makeTempDir('warren-agents-command-');
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  const agents = path.join(cwd, '.warren/agents');
  await mkdir(agents, { recursive: true });
  await mkdir(path.join(home, '.warren/agents'), { recursive: true });
  await writeFile(
    path.join(agents, 'explore.md'),
    '---\nname: explore\ndescription: My explorer.\nmodel: haiku\ntools: Read, WebSearch\n---\nExplore.\n',
  );
  await writeFile(path.join(agents, 'broken.md'), '---\nname: broken\n---\nNo description.\n');
  await writeFile(
    path.join(home, '.warren/agents/helper.md'),
    '---\nname: helper\ndescription: Helps.\nagents: [explore]\n---\nHelp.\n',
  );
  listing = agentsListing(
    await loadAgentDefinitions({
      cwd,
      homeDir: home,
      agents: { sdk: { description: 'From code.', prompt: 'p' } },
    }),
  );
});

describe('agentsListing (the --json output)', () => {
  it('lists every definition, overridden built-ins and broken files included, sorted by name', () => {
    expect(listing.agents.map((agent) => [agent.name, agent.source.kind, agent.status])).toEqual([
      ['broken', 'project', 'error'],
      ['explore', 'project', 'ok'],
      ['explore', 'builtin', 'overridden'],
      ['general-purpose', 'builtin', 'ok'],
      ['helper', 'user', 'ok'],
      ['plan', 'builtin', 'ok'],
      ['sdk', 'sdk', 'ok'],
    ]);
  });

  it('gives each agent its source, model, tools and delegation targets', () => {
    const explore = listing.agents[1]!;
    expect(explore).toEqual({
      name: 'explore',
      description: 'My explorer.',
      source: { kind: 'project', path: path.join(cwd, '.warren/agents/explore.md') },
      format: 'warren',
      model: 'haiku',
      tools: ['Read'],
      disallowedTools: [],
      spawnableAgents: null,
      agents: [],
      status: 'ok',
      limits: {
        readOnly: false,
        toolsOff: [],
        permissionMode: null,
        permissionRules: [],
        mcpServers: [],
        skills: [],
        hooks: [],
        maxTurns: null,
      },
      trust: 'trusted',
      replacesBuiltin: 'explore',
      warnings: [],
      notes: [{ line: 5, message: '`tools`: dropped `WebSearch`: warren has no such tool' }],
    });
    expect(listing.toolWarnings).toEqual([
      expect.stringMatching(
        /^warren has no tool `WebSearch`: agent explore lists it and runs without it\./,
      ),
    ]);
    const general = listing.agents.find((agent) => agent.name === 'general-purpose')!;
    expect(general).toMatchObject({
      source: { kind: 'builtin', path: null },
      model: 'inherit',
      tools: null,
    });
    expect(listing.agents.find((agent) => agent.name === 'helper')?.agents).toEqual(['explore']);
  });

  it('carries the error of a broken file and counts errors and warnings', () => {
    expect(listing.agents[0]?.error).toEqual({
      line: 1,
      message: expect.stringContaining('`description` is missing'),
    });
    expect(listing.errors).toBe(1);
    expect(listing.warnings).toBe(1);
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(listing))).toEqual(listing);
  });
});

describe('formatAgentsListing (the text output)', () => {
  it('prints a table of name, source, format, model, tool count, limits, trust, warnings and status', () => {
    const lines = formatAgentsListing(listing, { cwd, homeDir: home }).split('\n');
    expect(lines[0]).toMatch(
      /^NAME\s+SOURCE\s+FORMAT\s+MODEL\s+TOOLS\s+LIMITS\s+TRUSTED\s+WARNINGS\s+STATUS$/,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^explore\s+project \.warren\/agents\/explore\.md\s+warren\s+haiku\s+1\s+-\s+yes\s+0\s+ok, replaces built-in$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^general-purpose\s+built-in\s+-\s+inherit\s+all\s+-\s+yes\s+0\s+ok$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^helper\s+user ~\/\.warren\/agents\/helper\.md\s+warren\s+inherit\s+all\s+-\s+yes\s+0\s+ok$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^broken\s+project \.warren\/agents\/broken\.md\s+warren\s+-\s+-\s+-\s+yes\s+0\s+error$/,
      ),
    );
  });

  it('lists errors and warnings with file:line, then a summary', () => {
    const text = formatAgentsListing(listing, { cwd, homeDir: home });
    expect(text).toContain('Errors:\n  .warren/agents/broken.md:1: `description` is missing');
    expect(text).toContain('Warnings:\n  warren has no tool `WebSearch`: agent explore lists it');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '5 agents in use, 1 overridden, 1 error, 1 warning',
    );
  });

  it('shows absolute paths when no cwd or home is given', () => {
    expect(formatAgentsListing(listing)).toContain(path.join(cwd, '.warren/agents/explore.md'));
  });
});

describe('what limits an agent', () => {
  it('is listed in full, with spawn targets that do not exist and whether the file is trusted', async () => {
    const root = await makeTempDir('warren-agents-limits-');
    const dir = path.join(root, '.claude/agents');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'guarded.md'),
      [
        '---',
        'name: guarded',
        'description: Guarded.',
        'tools: Read, Bash, Agent(ghost, helper)',
        'disallowedTools: Bash(git push:*), WebFetch',
        'permissionMode: plan',
        'maxTurns: 7',
        'skills: [lint]',
        'mcpServers: [github]',
        'hooks:',
        '  PreToolUse: [{ matcher: Bash, hooks: [{ type: command, command: ./guard.sh }] }]',
        '---',
        'Guard.',
      ].join('\n'),
    );
    await writeFile(path.join(dir, 'helper.md'), '---\nname: helper\ndescription: H.\n---\nH.');
    const result = await loadAgentDefinitions({ cwd: root, homeDir: root });
    const limited = agentsListing(result, (source) =>
      source.path?.endsWith('guarded.md') ? 'changed' : 'trusted',
    );
    const guarded = limited.agents.find((agent) => agent.name === 'guarded')!;
    expect(guarded).toMatchObject({
      limits: {
        readOnly: false,
        toolsOff: ['Bash(git push:*)', 'WebFetch'],
        permissionMode: 'plan',
        mcpServers: ['github'],
        skills: ['lint'],
        hooks: ['PreToolUse'],
        maxTurns: 7,
      },
      trust: 'changed',
      replacesBuiltin: null,
    });
    expect(guarded.warnings).toContainEqual({
      message: 'it may start `ghost`, which no definition provides; that call will fail',
      line: null,
    });
    const text = formatAgentsListing(limited, { cwd: root });
    expect(text).toMatch(
      /\nguarded\s+project \.claude\/agents\/guarded\.md\s+claude-code\s+inherit\s+3\s+off: Bash\(git push:\*\) WebFetch, mode plan, mcp: github, 1 skill, hooks: PreToolUse, 7 turns\s+changed\s+1\s+ok\n/,
    );
    const readOnly = limited.agents.find((agent) => agent.name === 'explore')!;
    expect(readOnly.limits?.readOnly).toBe(true);
  });
});
