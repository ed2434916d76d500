// Grep in a cloned repository whose .gitignore and files are FIFOs: it searches the regular
// files and never waits on a pipe.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputText, useToolSandbox } from '../testing/tool-context.js';
import { makeGrepTool } from './grep.js';

const { dir, ctx } = useToolSandbox();

describe('Grep with the javascript engine among FIFOs', () => {
  it('skips a FIFO .gitignore above the searched folder and a FIFO file instead of waiting on them', async () => {
    await mkdir(path.join(dir(), '.git'));
    await mkdir(path.join(dir(), 'src'));
    await writeFile(path.join(dir(), 'src', 'app.ts'), 'const needle = 1;\n');
    execFileSync('mkfifo', [path.join(dir(), '.gitignore')]);
    execFileSync('mkfifo', [path.join(dir(), 'src', 'pipe.ts')]);
    const result = await makeGrepTool('javascript').call(
      { pattern: 'needle', path: 'src', output_mode: 'files_with_matches' },
      ctx(),
    );
    expect(outputText(result)).toContain('app.ts');
  }, 10_000);
});
