import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useOutsideSandbox } from '../testing/hostile/outside-sandbox.js';
import { makeTempDir } from '../testing/temp-dir.js';
import {
  isErrorOutput,
  outputText,
  testToolContext,
  useToolSandbox,
} from '../testing/tool-context.js';
import { globTool } from './glob.js';

const { dir, ctx } = useToolSandbox();

/** Creates files, the first listed oldest, each a minute newer than the one before. */
async function files(...names: string[]): Promise<void> {
  const start = Date.now() / 1000 - 3600;
  for (const [index, name] of names.entries()) {
    const file = path.join(dir(), name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, name);
    await utimes(file, start + index * 60, start + index * 60);
  }
}

const lines = async (input: { pattern: string; path?: string }) =>
  outputText(await globTool.call(input, ctx())).split('\n');

describe('Glob', () => {
  it('lists matching files, most recently modified first', async () => {
    await files('src/old.ts', 'src/deep/newer.ts', 'src/newest.ts', 'README.md');
    expect(await lines({ pattern: '**/*.ts' })).toEqual([
      'src/newest.ts',
      'src/deep/newer.ts',
      'src/old.ts',
    ]);
  });

  it('does not cross directories with a single star', async () => {
    await files('top.ts', 'src/nested.ts');
    expect(await lines({ pattern: '*.ts' })).toEqual(['top.ts']);
  });

  it('searches under the given path and shows paths relative to cwd', async () => {
    await files('src/a.ts', 'test/b.ts');
    expect(await lines({ pattern: '**/*.ts', path: 'test' })).toEqual(['test/b.ts']);
  });

  it('takes the base directory from an absolute pattern', async () => {
    await files('src/a.ts', 'test/b.ts');
    expect(await lines({ pattern: path.join(dir(), 'src/**/*.ts') })).toEqual(['src/a.ts']);
  });

  it('skips node_modules and .git unless the pattern names them', async () => {
    await files('node_modules/pkg/index.js', '.git/hooks/x.js', 'app.js', '.config/tool.js');
    expect(await lines({ pattern: '**/*.js' })).toEqual(['.config/tool.js', 'app.js']);
    expect(await lines({ pattern: 'node_modules/**/*.js' })).toEqual(['node_modules/pkg/index.js']);
  });

  it("skips sub-agents' worktrees (.warren/worktrees) unless the pattern names them", async () => {
    await files('.warren/worktrees/agent_1/app.js', '.warren/agents/helper.js', 'app.js');
    expect((await lines({ pattern: '**/*.js' })).sort()).toEqual([
      '.warren/agents/helper.js',
      'app.js',
    ]);
    expect(await lines({ pattern: '.warren/worktrees/**/*.js' })).toEqual([
      '.warren/worktrees/agent_1/app.js',
    ]);
  });

  it('caps the list at 100 files and says how many matched', async () => {
    await files(...Array.from({ length: 120 }, (_, index) => `f${index}.txt`));
    const result = await lines({ pattern: '*.txt' });
    expect(result[0]).toBe('f119.txt');
    expect(result.filter((line) => line.endsWith('.txt'))).toHaveLength(100);
    expect(result.at(-1)).toContain('100 most recently modified of 120');
  });

  it('says when nothing matches', async () => {
    await files('a.ts');
    const result = await globTool.call({ pattern: '**/*.py' }, ctx());
    expect(isErrorOutput(result)).toBe(false);
    expect(outputText(result)).toContain('No files found');
  });

  it('refuses a search path outside the allowed directories', async () => {
    const result = await globTool.call({ pattern: '*', path: path.dirname(dir()) }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('outside the allowed directories');
  });

  it('never lists files outside the allowed directories, even with ../ in the pattern', async () => {
    const sibling = await makeTempDir();
    await writeFile(path.join(sibling, 'secret.txt'), 'x');
    const result = outputText(
      await globTool.call({ pattern: `../${path.basename(sibling)}/*.txt` }, ctx()),
    );
    await rm(sibling, { recursive: true, force: true });
    expect(result).not.toContain('secret.txt');
  });

  it('does not list through a symlinked directory', async () => {
    const sibling = await makeTempDir();
    await writeFile(path.join(sibling, 'secret.txt'), 'x');
    await symlink(sibling, path.join(dir(), 'linked'));
    const result = outputText(await globTool.call({ pattern: '**/*.txt' }, ctx()));
    await rm(sibling, { recursive: true, force: true });
    expect(result).not.toContain('secret.txt');
  });

  it('says when the search path is missing or is a file', async () => {
    await files('a.ts');
    expect(outputText(await globTool.call({ pattern: '*', path: 'nope' }, ctx()))).toContain(
      'does not exist',
    );
    expect(outputText(await globTool.call({ pattern: '*', path: 'a.ts' }, ctx()))).toContain(
      'is a file',
    );
  });

  it('is read-only and matched by its search path', () => {
    expect(globTool.isReadOnly).toBe(true);
    expect(globTool.isConcurrencySafe).toBe(true);
    expect(globTool.permissionSubject?.({ pattern: '*' }, { cwd: dir() })).toBe('.');
    expect(globTool.permissionSubject?.({ pattern: '*', path: 'src' }, { cwd: dir() })).toBe('src');
  });
});

describe('Glob and symlinks that lead out', () => {
  const sandbox = useOutsideSandbox();
  const globIn = async (pattern: string) =>
    outputText(await globTool.call({ pattern }, testToolContext({ cwd: sandbox().project })));

  it.each(['link_dir/*', 'link_dir/**', 'link_*/*', '*/canary.txt', '**/canary.txt'])(
    'does not list the outside through a symlinked directory the pattern names: %s',
    async (pattern) => {
      expect(await globIn(pattern)).not.toContain('link_dir/canary.txt');
    },
  );

  it('says that it left out matches whose real location is outside', async () => {
    expect(await globIn('link_dir/*')).toBe(
      'No files found matching "link_dir/*" in the working directory. (1 match was left out: its real location is outside the allowed directories.)',
    );
  });

  it('lists no symlink to a file outside', async () => {
    const result = await globIn('**/*');
    expect(result.split('\n').sort()).toEqual(['a.js', 'notes.txt', 'sub/b.txt']);
  });
});
