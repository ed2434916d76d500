// Grep in a cloned repository whose .gitignore, info/exclude and files are FIFOs: it searches
// the regular files and never waits on a pipe, with either engine.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputText, useToolSandbox } from '../testing/tool-context.js';
import { makeGrepTool } from './grep.js';
import { ripgrepAvailable } from './grep-ripgrep.js';

const { dir, ctx } = useToolSandbox();

const hasRipgrep = await ripgrepAvailable();

describe.each([
  { engine: 'javascript' as const, skip: false },
  { engine: 'ripgrep' as const, skip: !hasRipgrep },
])('Grep with the $engine engine among FIFOs', ({ engine, skip }) => {
  it.skipIf(skip)(
    'skips a FIFO .gitignore above the searched folder and a FIFO file instead of waiting on them',
    async () => {
      await mkdir(path.join(dir(), '.git'));
      await mkdir(path.join(dir(), 'src'));
      await writeFile(path.join(dir(), 'src', 'app.ts'), 'const needle = 1;\n');
      execFileSync('mkfifo', [path.join(dir(), '.gitignore')]);
      execFileSync('mkfifo', [path.join(dir(), 'src', 'pipe.ts')]);
      const result = await makeGrepTool(engine).call(
        { pattern: 'needle', path: 'src', output_mode: 'files_with_matches' },
        ctx(),
      );
      expect(outputText(result)).toContain('app.ts');
    },
    10_000,
  );

  it.skipIf(skip)(
    'finds through a FIFO .gitignore inside the tree and a FIFO info/exclude',
    async () => {
      await mkdir(path.join(dir(), '.git', 'info'), { recursive: true });
      await mkdir(path.join(dir(), 'src', 'deep'), { recursive: true });
      await writeFile(path.join(dir(), 'src', 'deep', 'app.ts'), 'const needle = 1;\n');
      execFileSync('mkfifo', [path.join(dir(), 'src', 'deep', '.gitignore')]);
      execFileSync('mkfifo', [path.join(dir(), '.git', 'info', 'exclude')]);
      const result = await makeGrepTool(engine).call(
        { pattern: 'needle', output_mode: 'files_with_matches' },
        ctx(),
      );
      expect(outputText(result)).toContain('app.ts');
    },
    10_000,
  );
});
