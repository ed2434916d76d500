import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../testing/temp-dir.js';
import { importReferences } from './instruction-imports.js';
import { instructionsSection } from './instructions-section.js';
import { loadProjectInstructions, MAX_IMPORT_DEPTH } from './project-instructions.js';

const sandbox = useTempDir('warren-instructions-');

/** A home with warren's folder, and a repository inside it with a package folder. */
async function layout(files: Record<string, string>) {
  const home = path.join(sandbox(), 'home');
  const repo = path.join(home, 'repo');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  await mkdir(path.join(home, '.warren'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(home, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  const load = (cwd = repo) =>
    loadProjectInstructions({ cwd, warrenHome: path.join(home, '.warren'), homeDir: home });
  return { home, repo, load };
}

const shown = (result: Awaited<ReturnType<typeof loadProjectInstructions>>) =>
  result.files.map((file) => [file.shown, file.importedBy ?? null]);

describe('project instructions', () => {
  it("reads the person's file, then every folder from the repository root down to cwd", async () => {
    const { repo, load } = await layout({
      '.warren/AGENTS.md': 'mine',
      'AGENTS.md': 'above the repository: not read',
      'repo/AGENTS.md': 'root agents',
      'repo/CLAUDE.md': 'root claude',
      'repo/WARREN.md': 'root warren',
      'repo/packages/app/AGENTS.md': 'app',
      'repo/packages/other/AGENTS.md': 'a sibling: not read',
    });
    const result = await load(path.join(repo, 'packages', 'app'));
    expect(shown(result)).toEqual([
      ['~/.warren/AGENTS.md', null],
      ['AGENTS.md', null],
      ['CLAUDE.md', null],
      ['WARREN.md', null],
      ['packages/app/AGENTS.md', null],
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('reads only the working directory outside a repository', async () => {
    const { home, load } = await layout({ 'plain/AGENTS.md': 'here', 'AGENTS.md': 'above' });
    expect(shown(await load(path.join(home, 'plain')))).toEqual([['AGENTS.md', null]]);
  });

  it('reads a file once: CLAUDE.md linked to AGENTS.md, or the same text under both names', async () => {
    const { repo, load } = await layout({
      'repo/AGENTS.md': 'shared',
      'repo/WARREN.md': 'shared\n',
    });
    await symlink('AGENTS.md', path.join(repo, 'CLAUDE.md'));
    expect(shown(await load())).toEqual([['AGENTS.md', null]]);
  });

  it('follows @imports after the file that imports them, relative to it', async () => {
    const { load } = await layout({
      'repo/AGENTS.md': 'Style: @docs/style.md\nAnd @docs/style.md again.',
      'repo/docs/style.md': 'Use tabs. See @./deep/more.md',
      'repo/docs/deep/more.md': 'More.',
      'repo/CLAUDE.md': '@AGENTS.md',
    });
    const result = await load();
    expect(shown(result)).toEqual([
      ['AGENTS.md', null],
      ['docs/style.md', 'AGENTS.md:1'],
      ['docs/deep/more.md', 'docs/style.md:1'],
      ['CLAUDE.md', null],
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('refuses imports that leave the repository, hidden files, and the home folder', async () => {
    const { load } = await layout({
      'secret.txt': 'SECRET outside the repository',
      'repo/.env': 'API_KEY=SECRET',
      'repo/AGENTS.md': [
        'See @../secret.txt and @../../../../../../etc/passwd,',
        'and @.env and @~/secret.txt and @/etc/hostname.',
      ].join('\n'),
    });
    const result = await load();
    expect(JSON.stringify(result.files)).not.toContain('SECRET');
    expect(shown(result)).toEqual([['AGENTS.md', null]]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^AGENTS\.md:1: @\.\.\/secret\.txt not read: it is outside .*repo/),
      expect.stringMatching(
        /^AGENTS\.md:1: @\.\.\/\.\.(\/\.\.)*\/etc\/passwd not read: it is outside/,
      ),
      "AGENTS.md:2: @.env not read: hidden files and folders (.env, .git, …) are never imported from a project's files",
      "AGENTS.md:2: @~/secret.txt not read: a project's files may not import from your home folder",
      expect.stringMatching(/^AGENTS\.md:2: @\/etc\/hostname not read: it is outside/),
    ]);
  });

  it('does not follow a symlink out of the repository', async () => {
    const { home, repo, load } = await layout({
      'secret.txt': 'SECRET',
      'repo/AGENTS.md': 'See @notes.md',
    });
    await symlink(path.join(home, 'secret.txt'), path.join(repo, 'notes.md'));
    await symlink(path.join(home, 'secret.txt'), path.join(repo, 'CLAUDE.md'));
    const result = await load();
    expect(JSON.stringify(result.files)).not.toContain('SECRET');
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^AGENTS\.md:1: the import notes\.md leads outside .*repo .*; not read$/,
      ),
      expect.stringMatching(/^CLAUDE\.md: leads outside .*repo .*; not read$/),
    ]);
  });

  it("lets the person's own file import from their home folder", async () => {
    const { load } = await layout({
      '.warren/AGENTS.md': 'Mine, and @~/notes/style.md',
      'notes/style.md': 'my style',
    });
    expect(shown(await load())).toEqual([
      ['~/.warren/AGENTS.md', null],
      ['~/notes/style.md', '~/.warren/AGENTS.md:1'],
    ]);
  });

  it('detects a cycle and says where', async () => {
    const { load } = await layout({
      'repo/AGENTS.md': '@a.md',
      'repo/a.md': 'a @b.md',
      'repo/b.md': 'b @a.md',
    });
    const result = await load();
    expect(shown(result).map(([file]) => file)).toEqual(['AGENTS.md', 'a.md', 'b.md']);
    expect(result.warnings).toEqual([
      'b.md:1: import cycle AGENTS.md → a.md → b.md → a.md; not read again',
    ]);
  });

  it(`stops imports ${MAX_IMPORT_DEPTH} deep`, async () => {
    const chain = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`repo/d${i}.md`, `level ${i} @d${i + 1}.md`]),
    );
    const { load } = await layout({ ...chain, 'repo/AGENTS.md': '@d0.md' });
    const result = await load();
    expect(result.files).toHaveLength(1 + MAX_IMPORT_DEPTH);
    expect(result.warnings).toEqual(['d4.md:1: @d5.md not read: imports nest at most 5 deep']);
  });

  it('cuts a file over 64 KiB and leaves out what passes 128 KiB in all', async () => {
    const big = 'x'.repeat(70 * 1024);
    const { load } = await layout({
      'repo/AGENTS.md': `${big}`,
      'repo/CLAUDE.md': `y${big}`,
      'repo/WARREN.md': 'z'.repeat(10 * 1024),
    });
    const result = await load();
    expect(shown(result)).toEqual([
      ['AGENTS.md', null],
      ['CLAUDE.md', null],
    ]);
    expect(result.warnings).toEqual([
      'AGENTS.md: 71,680 bytes; only its first 64 KiB are used',
      'CLAUDE.md: 71,681 bytes; only its first 64 KiB are used',
      'WARREN.md: left out: the instructions already hold 131,072 bytes, and 128 KiB is the most all files together may hold',
    ]);
  });
});

describe('@import references', () => {
  it('are paths after an @ at a line start or after a space, outside code', () => {
    const text = [
      '@docs/a.md and see @b.txt.',
      'mail me at me@example.com, ping @alice, install `@scope/pkg`',
      '```',
      '@decorator/not-an-import.md',
      '```',
      'path\\ with @my\\ notes.md',
    ].join('\n');
    expect(importReferences(text)).toEqual([
      { path: 'docs/a.md', line: 1 },
      { path: 'b.txt', line: 1 },
      { path: 'my notes.md', line: 6 },
    ]);
  });
});

describe('the instructions section', () => {
  it('tags each file with its name and where it was imported', () => {
    const section = instructionsSection([
      { path: '/r/AGENTS.md', shown: 'AGENTS.md', text: 'Use pnpm.\n' },
      { path: '/r/x.md', shown: 'x.md', text: 'X.', importedBy: 'AGENTS.md:3' },
    ]);
    expect(section?.name).toBe('project-instructions');
    expect(section?.text).toContain(
      '<instructions file="AGENTS.md">\nUse pnpm.\n</instructions>\n\n<instructions file="x.md" imported-by="AGENTS.md:3">\nX.\n</instructions>',
    );
    expect(instructionsSection([])).toBeUndefined();
  });
});
