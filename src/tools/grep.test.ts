import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useOutsideSandbox } from '../testing/hostile/outside-sandbox.js';
import {
  isErrorOutput,
  outputText,
  testToolContext,
  useToolSandbox,
} from '../testing/tool-context.js';
import { type GrepEngineName, makeGrepTool } from './grep.js';
import { ripgrepAvailable } from './grep-ripgrep.js';

const hasRipgrep = await ripgrepAvailable();

const { dir, ctx } = useToolSandbox();

/** Writes files given as name → content, the first oldest, each a minute newer. */
async function tree(files: Record<string, string | Buffer>): Promise<void> {
  const start = Date.now() / 1000 - 3600;
  for (const [index, [name, content]] of Object.entries(files).entries()) {
    const file = path.join(dir(), name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    await utimes(file, start + index * 60, start + index * 60);
  }
}

const project = {
  'src/app.ts': 'import { helper } from "./helper";\nconst TODO = 1;\nhelper();\n',
  'src/helper.ts': 'export function helper() {\n  // todo: tidy\n}\n',
  'src/a/deep.ts': 'helper\n',
  'README.md': 'Call helper() to help.\n',
  'notes.txt': 'nothing here\n',
};

const engines: { engine: GrepEngineName; skip: boolean }[] = [
  { engine: 'javascript', skip: false },
  { engine: 'ripgrep', skip: !hasRipgrep },
];

describe.each(engines)('Grep with the $engine engine', ({ engine, skip }) => {
  const grep = makeGrepTool(engine);
  const run = async (input: Parameters<typeof grep.call>[0]) =>
    outputText(await grep.call(input, ctx()));

  it.skipIf(skip)(
    'lists files with matches, most recently modified first, by default',
    async () => {
      await tree(project);
      expect(await run({ pattern: 'helper' })).toBe(
        'README.md\nsrc/a/deep.ts\nsrc/helper.ts\nsrc/app.ts',
      );
    },
  );

  it.skipIf(skip)('shows matching lines as path:line:text in path order', async () => {
    await tree(project);
    expect(await run({ pattern: 'helper\\(\\)', output_mode: 'content' })).toBe(
      [
        'README.md:1:Call helper() to help.',
        'src/app.ts:3:helper();',
        'src/helper.ts:1:export function helper() {',
      ].join('\n'),
    );
  });

  it.skipIf(skip)('counts matching lines per file', async () => {
    await tree(project);
    expect(await run({ pattern: 'helper', output_mode: 'count' })).toBe(
      'README.md:1\nsrc/a/deep.ts:1\nsrc/app.ts:2\nsrc/helper.ts:1',
    );
  });

  it.skipIf(skip)('matches regardless of case when asked', async () => {
    await tree(project);
    expect(await run({ pattern: 'todo', output_mode: 'content' })).toBe(
      'src/helper.ts:2:  // todo: tidy',
    );
    expect(await run({ pattern: 'todo', output_mode: 'content', case_insensitive: true })).toBe(
      'src/app.ts:2:const TODO = 1;\nsrc/helper.ts:2:  // todo: tidy',
    );
  });

  it.skipIf(skip)('filters files by a name glob or a path glob', async () => {
    await tree(project);
    expect(await run({ pattern: 'helper', glob: '*.md' })).toBe('README.md');
    expect(await run({ pattern: 'helper', glob: '*.{md,txt}' })).toBe('README.md');
    expect(await run({ pattern: 'helper', glob: 'src/a/**' })).toBe('src/a/deep.ts');
  });

  it.skipIf(skip)('searches only under the given directory, or only the given file', async () => {
    await tree(project);
    expect(await run({ pattern: 'helper', path: 'src/a' })).toBe('src/a/deep.ts');
    expect(await run({ pattern: 'help', path: 'README.md', output_mode: 'content' })).toBe(
      'README.md:1:Call helper() to help.',
    );
  });

  it.skipIf(skip)('skips files ignored by .gitignore in a git repository', async () => {
    await mkdir(path.join(dir(), '.git'));
    await tree({
      '.gitignore': 'build/\n*.log\n',
      'build/out.js': 'needle\n',
      'debug.log': 'needle\n',
      'src/.gitignore': 'generated.ts\n',
      'src/generated.ts': 'needle\n',
      'src/kept.ts': 'needle\n',
    });
    expect(await run({ pattern: 'needle' })).toBe('src/kept.ts');
  });

  it.skipIf(skip)('searches an ignored directory when it is the path given', async () => {
    await mkdir(path.join(dir(), '.git'));
    await tree({ '.gitignore': 'build/\n', 'build/out.js': 'needle\n' });
    expect(await run({ pattern: 'needle', path: 'build' })).toBe('build/out.js');
  });

  it.skipIf(skip)(
    'skips node_modules, .git and agent worktrees but searches other hidden files',
    async () => {
      await tree({
        'node_modules/pkg/index.js': 'needle\n',
        '.git/config': 'needle\n',
        '.warren/worktrees/agent_1/main.js': 'needle\n',
        '.github/workflow.yml': 'needle\n',
        'main.js': 'needle\n',
      });
      expect(await run({ pattern: 'needle' })).toBe('main.js\n.github/workflow.yml');
    },
  );

  it.skipIf(skip)('skips binary files', async () => {
    await tree({ 'blob.bin': Buffer.from('needle\0\x01\x02'), 'text.txt': 'needle\n' });
    expect(await run({ pattern: 'needle' })).toBe('text.txt');
  });

  it.skipIf(skip)('caps content output and says how to see the rest', async () => {
    await tree({
      'many.txt': Array.from({ length: 400 }, (_, index) => `hit ${index}`).join('\n'),
    });
    const output = (await run({ pattern: 'hit', output_mode: 'content' })).split('\n');
    expect(output[0]).toBe('many.txt:1:hit 0');
    expect(output.filter((line) => line.startsWith('many.txt:'))).toHaveLength(250);
    expect(output.at(-1)).toContain('Showing the first 250 matching lines');
  });

  it.skipIf(skip)('cuts off very long matching lines', async () => {
    await tree({ 'wide.txt': `needle${'x'.repeat(1000)}\n` });
    const output = await run({ pattern: 'needle', output_mode: 'content' });
    expect(output).toContain('[line truncated]');
    expect(output.length).toBeLessThan(400);
  });

  it.skipIf(skip)('says when nothing matches', async () => {
    await tree(project);
    const result = await grep.call({ pattern: 'absent_word' }, ctx());
    expect(isErrorOutput(result)).toBe(false);
    expect(outputText(result)).toContain('No matches');
  });

  it.skipIf(skip)('reports an invalid regular expression as an error', async () => {
    await tree(project);
    const result = await grep.call({ pattern: 'broken(' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
  });

  it.skipIf(skip)('refuses a search path outside the allowed directories', async () => {
    const result = await grep.call({ pattern: 'x', path: path.dirname(dir()) }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('outside the allowed directories');
  });
});

describe('Grep engines', () => {
  it.skipIf(!hasRipgrep)('give the same output for every mode', async () => {
    await mkdir(path.join(dir(), '.git'));
    await tree({
      ...project,
      '.gitignore': 'notes.txt\n',
      'a.txt': 'helper\n',
      'a/b.txt': 'helper\n',
    });
    for (const output_mode of ['content', 'files_with_matches', 'count'] as const) {
      const input = { pattern: 'help|TODO', output_mode };
      const viaRipgrep = outputText(await makeGrepTool('ripgrep').call(input, ctx()));
      const viaJavaScript = outputText(await makeGrepTool('javascript').call(input, ctx()));
      expect(viaJavaScript).toBe(viaRipgrep);
    }
  });

  it('is read-only and matched by its search path', () => {
    const grep = makeGrepTool('auto');
    expect(grep.isReadOnly).toBe(true);
    expect(grep.isConcurrencySafe).toBe(true);
    expect(grep.permissionSubject?.({ pattern: 'x' }, { cwd: dir() })).toBe('.');
    expect(
      grep.permissionSubject?.({ pattern: 'x', path: path.join(dir(), 'src') }, { cwd: dir() }),
    ).toBe('src');
  });
});

describe.each(engines)(
  'Grep with the $engine engine and symlinks that lead out',
  ({ engine, skip }) => {
    const sandbox = useOutsideSandbox();
    const grep = makeGrepTool(engine);
    const run = async (input: Parameters<typeof grep.call>[0]) =>
      outputText(await grep.call(input, testToolContext({ cwd: sandbox().project })));

    it.skipIf(skip)('does not follow them while searching the tree', async () => {
      for (const output_mode of ['content', 'files_with_matches', 'count'] as const) {
        const result = await run({ pattern: 'CANARY', output_mode });
        expect(result).not.toContain(sandbox().secret);
        expect(result).toContain('No matches');
      }
    });

    it.skipIf(skip)('does not follow them when the glob names them', async () => {
      for (const glob of ['link_dir/**', 'link_file', '**/deep_link', 'link_*']) {
        expect(await run({ pattern: 'CANARY', glob, output_mode: 'content' })).toContain(
          'No matches',
        );
      }
    });

    it.skipIf(skip)('refuses them as the search path', async () => {
      for (const searchPath of ['link_dir', 'link_file', 'sub/deep_link', 'link_dir/canary.txt']) {
        expect(await run({ pattern: 'CANARY', path: searchPath })).toContain(
          'outside the allowed directories',
        );
      }
    });
  },
);
