import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { aliasFanOutDefinition } from '../testing/hostile/hostile-definitions.js';
import { makeTempDir } from '../testing/temp-dir.js';
import {
  type LoadAgentDefinitionsOptions,
  loadAgentDefinitions,
} from './load-agent-definitions.js';

interface Workspace {
  cwd: string;
  home: string;
  /** Writes a definition file (a path relative to the workspace root). */
  write(relative: string, text: string): Promise<string>;
  load(options?: Partial<LoadAgentDefinitionsOptions>): ReturnType<typeof loadAgentDefinitions>;
}

async function workspace(): Promise<Workspace> {
  const root = await makeTempDir('warren-agents-');
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  return {
    cwd,
    home,
    async write(relative, text) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      return file;
    },
    load: (options) => loadAgentDefinitions({ cwd, homeDir: home, ...options }),
  };
}

const agent = (name: string, description = `${name} agent`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nYou are ${name}.\n`;

describe('loadAgentDefinitions', () => {
  it('finds project definitions in .warren, .claude and .opencode folders, nested ones too', async () => {
    const ws = await workspace();
    await ws.write('project/.warren/agents/a.md', agent('a'));
    await ws.write('project/.claude/agents/team/b.md', agent('b'));
    await ws.write('project/.opencode/agent/subagents/code/c.md', agent('c'));
    await ws.write('project/.opencode/agents/d.md', agent('d'));
    const { definitions, entries } = await ws.load({ builtins: false });
    expect([...definitions.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(entries.every((entry) => entry.source.kind === 'project')).toBe(true);
  });

  it('loads every other definition when one file cannot be read as YAML', async () => {
    const ws = await workspace();
    const bomb = await ws.write('project/.claude/agents/bomb.md', aliasFanOutDefinition());
    await ws.write('project/.claude/agents/fine.md', agent('fine'));
    const { definitions, entries } = await ws.load({ builtins: false });
    expect([...definitions.keys()]).toEqual(['fine']);
    expect(entries.find((entry) => entry.source.path === bomb)).toMatchObject({
      status: 'error',
      error: { line: 5, message: expect.stringContaining('Excessive alias count') },
    });
  });

  it('skips README.md and files that are not Markdown', async () => {
    const ws = await workspace();
    await ws.write('project/.warren/agents/README.md', '# About these agents\n');
    await ws.write('project/.warren/agents/notes.txt', agent('txt'));
    await ws.write('project/.warren/agents/real.md', agent('real'));
    const { entries } = await ws.load({ builtins: false });
    expect(entries.map((entry) => entry.name)).toEqual(['real']);
  });

  it('reads user definitions from <home>/.warren/agents', async () => {
    const ws = await workspace();
    const file = await ws.write('home/.warren/agents/mine.md', agent('mine'));
    const { definitions } = await ws.load();
    expect(definitions.get('mine')?.source).toEqual({ kind: 'user', path: file, format: 'warren' });
  });

  it('reads a folder once when the project is the home folder', async () => {
    const ws = await workspace();
    await ws.write('project/.warren/agents/mine.md', agent('mine'));
    const { entries } = await loadAgentDefinitions({
      cwd: ws.cwd,
      homeDir: ws.cwd,
      builtins: false,
    });
    expect(entries.map((entry) => [entry.name, entry.source.kind, entry.status])).toEqual([
      ['mine', 'project', 'ok'],
    ]);
  });

  it('includes the built-ins unless asked not to', async () => {
    const ws = await workspace();
    expect([...(await ws.load()).definitions.keys()].sort()).toEqual([
      'explore',
      'general-purpose',
      'plan',
    ]);
    expect((await ws.load({ builtins: false })).definitions.size).toBe(0);
  });

  it('resolves a name by precedence: SDK > --agents-dir > project > user > built-in', async () => {
    const ws = await workspace();
    await ws.write('home/.warren/agents/explore.md', agent('explore', 'user'));
    await ws.write('project/.warren/agents/explore.md', agent('explore', 'project'));
    await ws.write('extra/explore.md', agent('explore', 'cli'));
    const sdk = { explore: { description: 'sdk', prompt: 'You explore.' } };

    const pick = async (options: Partial<LoadAgentDefinitionsOptions>) =>
      (await ws.load(options)).definitions.get('explore')?.description;
    expect(await pick({ agentsDirs: ['../extra'], agents: sdk })).toBe('sdk');
    expect(await pick({ agentsDirs: ['../extra'] })).toBe('cli');
    expect(await pick({})).toBe('project');

    const { entries } = await ws.load({ agentsDirs: ['../extra'], agents: sdk });
    const explores = entries.filter((entry) => entry.name === 'explore');
    expect(explores.map((entry) => [entry.source.kind, entry.status])).toEqual([
      ['sdk', 'ok'],
      ['agents-dir', 'overridden'],
      ['project', 'overridden'],
      ['user', 'overridden'],
      ['builtin', 'overridden'],
    ]);
  });

  it('notes on an overridden built-in which file overrides it', async () => {
    const ws = await workspace();
    const file = await ws.write('project/.claude/agents/explore.md', agent('explore', 'mine'));
    const { entries } = await ws.load();
    const builtin = entries.find(
      (entry) => entry.name === 'explore' && entry.source.kind === 'builtin',
    );
    expect(builtin?.status).toBe('overridden');
    expect(builtin?.notes).toEqual([
      { message: `overridden by ${file} (project definitions take precedence over builtin ones)` },
    ]);
    expect(builtin?.warnings).toEqual([]);
  });

  it('warns about two definitions of one name at the same level, naming both files', async () => {
    const ws = await workspace();
    const winner = await ws.write(
      'project/.warren/agents/reviewer.md',
      agent('reviewer', 'warren'),
    );
    const loser = await ws.write(
      'project/.claude/agents/code-reviewer.md',
      agent('reviewer', 'claude'),
    );
    const { definitions, entries } = await ws.load({ builtins: false });
    expect(definitions.get('reviewer')?.description).toBe('warren');
    const overridden = entries.find((entry) => entry.source.path === loser);
    expect(overridden?.status).toBe('overridden');
    expect(overridden?.warnings).toEqual([
      { message: expect.stringContaining(`"reviewer" is also defined in ${winner}, which wins`) },
    ]);
  });

  it('prefers the shallower file when one folder holds the same name twice', async () => {
    const ws = await workspace();
    await ws.write(
      'project/.claude/agents/docs/ja-JP/reviewer.md',
      agent('reviewer', 'translation'),
    );
    await ws.write('project/.claude/agents/reviewer.md', agent('reviewer', 'original'));
    const { definitions } = await ws.load({ builtins: false });
    expect(definitions.get('reviewer')?.description).toBe('original');
  });

  it('lets the first --agents-dir win a tie between --agents-dir folders', async () => {
    const ws = await workspace();
    await ws.write('one/x.md', agent('x', 'one'));
    await ws.write('two/x.md', agent('x', 'two'));
    const { definitions } = await ws.load({ agentsDirs: ['../one', '../two'] });
    expect(definitions.get('x')?.description).toBe('one');
  });

  it('refuses an --agents-dir that does not exist, naming the flag', async () => {
    const ws = await workspace();
    const loading = ws.load({ agentsDirs: ['missing'] });
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(/^--agents-dir .*missing: no such directory/);
  });

  it('lists broken files as error entries and still loads the rest', async () => {
    const ws = await workspace();
    const broken = await ws.write(
      'project/.warren/agents/broken.md',
      '---\nname: broken\n---\nno description',
    );
    await ws.write('project/.warren/agents/fine.md', agent('fine'));
    const { definitions, entries } = await ws.load({ builtins: false });
    expect([...definitions.keys()]).toEqual(['fine']);
    expect(entries.find((entry) => entry.source.path === broken)).toMatchObject({
      name: 'broken',
      status: 'error',
      error: { message: expect.stringContaining('`description` is missing') },
    });
  });

  it('builds SDK definitions, keeping custom tool names', async () => {
    const ws = await workspace();
    const { definitions } = await ws.load({
      agents: {
        triage: {
          description: 'Sorts tickets.',
          prompt: 'You triage.',
          tools: ['Read', 'lookup_ticket'],
        },
      },
    });
    expect(definitions.get('triage')).toEqual({
      name: 'triage',
      description: 'Sorts tickets.',
      prompt: 'You triage.',
      tools: ['Read', 'lookup_ticket'],
      extra: {},
      source: { kind: 'sdk' },
    });
  });

  it('reports an invalid SDK definition as an error entry naming the field', async () => {
    const ws = await workspace();
    const { definitions, entries } = await ws.load({
      agents: { bad: { description: 'd', prompt: 'p', maxTurns: -1 } },
    });
    expect(definitions.has('bad')).toBe(false);
    expect(entries[0]).toMatchObject({
      name: 'bad',
      status: 'error',
      error: { message: '`maxTurns` must be a whole number above 0 (got -1)' },
    });
  });

  it('resolves the duplicate names of the real fixture files and warns about each copy', async () => {
    const fixtures = fileURLToPath(new URL('./fixtures/corpus/', import.meta.url));
    const ws = await workspace();
    const { definitions, entries } = await ws.load({ agentsDirs: [fixtures], builtins: false });
    const relative = (entry: (typeof entries)[number]) =>
      path.relative(fixtures, entry.source.path!);

    expect(path.relative(fixtures, definitions.get('code-reviewer')!.source.path!)).toBe(
      'DoozieSoftware__everything-opencode/agents/code-reviewer.md',
    );
    const copies = entries.filter(
      (entry) => entry.name === 'code-reviewer' && entry.status === 'overridden',
    );
    expect(copies.map(relative).sort()).toEqual([
      'DoozieSoftware__everything-opencode/.opencode/agents/code-reviewer.md',
      'DoozieSoftware__everything-opencode/docs/ja-JP/agents/code-reviewer.md',
    ]);
    for (const copy of copies) {
      expect(copy.warnings.at(-1)?.message).toContain(
        'DoozieSoftware__everything-opencode/agents/code-reviewer.md, which wins',
      );
    }
    // `name: OpenCoder` in both: names are lower case.
    const openCoders = entries.filter((entry) => entry.name === 'opencoder');
    expect(openCoders.map((entry) => entry.status).sort()).toEqual(['ok', 'overridden']);
  });
});

describe('project folders up to the repository root', () => {
  async function repository() {
    const ws = await workspace();
    // `project` is the repository; the run starts two folders down.
    await mkdir(path.join(ws.cwd, '.git'));
    const cwd = path.join(ws.cwd, 'packages', 'web');
    await mkdir(cwd, { recursive: true });
    return { ws, cwd };
  }

  it("reads the repository root's agent folders from a folder inside it", async () => {
    const { ws, cwd } = await repository();
    await ws.write('project/.claude/agents/reviewer.md', agent('reviewer'));
    const { definitions } = await ws.load({ cwd, builtins: false });
    expect(definitions.get('reviewer')?.description).toBe('reviewer agent');
  });

  it('lets the nearest folder win a name, with a note, not a rename warning', async () => {
    const { ws, cwd } = await repository();
    const far = await ws.write('project/.claude/agents/reviewer.md', agent('reviewer', 'root'));
    await ws.write('project/packages/web/.claude/agents/reviewer.md', agent('reviewer', 'near'));
    const { definitions, entries } = await ws.load({ cwd, builtins: false });
    expect(definitions.get('reviewer')?.description).toBe('near');
    const overridden = entries.find((entry) => entry.source.path === far);
    expect(overridden).toMatchObject({ status: 'overridden', warnings: [] });
    expect(overridden?.notes).toEqual([
      { message: expect.stringMatching(/a folder nearer the working folder wins\)$/) },
    ]);
  });

  it('stops at the repository root, and reads only the working folder outside a repository', async () => {
    const ws = await workspace();
    await ws.write('.claude/agents/above.md', agent('above'));
    await ws.write('project/sub/.keep', '');
    const { definitions } = await ws.load({ cwd: path.join(ws.cwd, 'sub'), builtins: false });
    expect([...definitions.keys()]).toEqual([]);
  });
});

describe('one agent seen twice', () => {
  it('is one agent when a folder is a link to another', async () => {
    const ws = await workspace();
    await ws.write('project/.warren/agents/reviewer.md', agent('reviewer'));
    await mkdir(path.join(ws.cwd, '.claude'));
    await symlink(path.join(ws.cwd, '.warren/agents'), path.join(ws.cwd, '.claude/agents'));
    const { entries } = await ws.load({ builtins: false });
    expect(entries.map((entry) => entry.name)).toEqual(['reviewer']);
    expect(entries[0]?.warnings).toEqual([]);
  });

  it('is one agent, with a note, when shipped in several formats side by side', async () => {
    const ws = await workspace();
    await ws.write('project/.claude/agents/reviewer.md', agent('reviewer', 'claude'));
    const opencode = await ws.write(
      'project/.opencode/agents/reviewer.md',
      '---\ndescription: opencode\n---\nYou review.\n',
    );
    const { definitions, entries } = await ws.load({ builtins: false });
    expect(definitions.get('reviewer')?.description).toBe('claude');
    const other = entries.find((entry) => entry.source.path === opencode);
    expect(other).toMatchObject({ status: 'overridden', warnings: [] });
    expect(other?.notes.map((note) => note.message)).toContain(
      `the same agent in claude-code format is used (${path.join(ws.cwd, '.claude/agents/reviewer.md')})`,
    );
  });
});
