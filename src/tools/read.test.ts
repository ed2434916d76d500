import { execFileSync } from 'node:child_process';
import { mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/temp-dir.js';
import { isErrorOutput, outputText, useToolSandbox } from '../testing/tool-context.js';
import { hashContent } from './file-state.js';
import { readTool } from './read.js';

const { dir, ctx } = useToolSandbox();

const numbered = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('Read', () => {
  it('shows the file with cat -n style line numbers', async () => {
    await writeFile(path.join(dir(), 'a.txt'), 'alpha\nbeta\n');
    const result = await readTool.call({ file_path: 'a.txt' }, ctx());
    expect(result).toBe('     1\talpha\n     2\tbeta');
  });

  it('reads a page from offset with limit and says how to read the rest', async () => {
    await writeFile(path.join(dir(), 'long.txt'), numbered(10));
    const result = outputText(
      await readTool.call({ file_path: 'long.txt', offset: 3, limit: 2 }, ctx()),
    );
    expect(result).toContain('     3\tline 3\n     4\tline 4');
    expect(result).not.toContain('line 5');
    expect(result).toContain('Showing lines 3-4 of 10');
    expect(result).toContain('offset 5');
  });

  it('reads at most 2000 lines by default', async () => {
    await writeFile(path.join(dir(), 'huge.txt'), numbered(2500));
    const result = outputText(await readTool.call({ file_path: 'huge.txt' }, ctx()));
    expect(result).toContain('  2000\tline 2000');
    expect(result).not.toContain('line 2001');
    expect(result).toContain('Showing lines 1-2000 of 2500');
    expect(result).toContain('offset 2001');
  });

  it('cuts off very long lines with a marker', async () => {
    await writeFile(path.join(dir(), 'wide.txt'), `${'x'.repeat(5000)}\nshort`);
    const result = outputText(await readTool.call({ file_path: 'wide.txt' }, ctx()));
    expect(result).toContain('[line truncated: 5000 characters]');
    expect(result).not.toContain('x'.repeat(2001));
    expect(result).toContain('     2\tshort');
  });

  it('shows lines of a CRLF file without carriage returns', async () => {
    await writeFile(path.join(dir(), 'dos.txt'), 'one\r\ntwo\r\n');
    expect(await readTool.call({ file_path: 'dos.txt' }, ctx())).toBe('     1\tone\n     2\ttwo');
  });

  it('refuses a file containing NUL bytes as binary', async () => {
    await writeFile(path.join(dir(), 'data.txt'), Buffer.from([0x41, 0x00, 0x42]));
    const result = await readTool.call({ file_path: 'data.txt' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('binary');
  });

  it('refuses a file with a binary extension', async () => {
    await writeFile(path.join(dir(), 'photo.png'), 'not really a png');
    const result = await readTool.call({ file_path: 'photo.png' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('binary');
  });

  it('says when a file does not exist and suggests similar names', async () => {
    await writeFile(path.join(dir(), 'config.json'), '{}');
    const result = await readTool.call({ file_path: 'config.yaml' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('File does not exist: config.yaml');
    expect(outputText(result)).toContain('Did you mean config.json?');
  });

  it('points to Glob when given a directory', async () => {
    await mkdir(path.join(dir(), 'src'));
    const result = await readTool.call({ file_path: 'src' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('is a directory');
    expect(outputText(result)).toContain('Glob');
  });

  it('refuses a named pipe instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(dir(), 'pipe')]);
    const result = await readTool.call({ file_path: 'pipe' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('not a regular file');
  });

  it('refuses /dev/stdin and a symlink to a pipe instead of waiting on them', async () => {
    execFileSync('mkfifo', [path.join(dir(), 'pipe')]);
    await symlink(path.join(dir(), 'pipe'), path.join(dir(), 'notes.txt'));
    await symlink('/dev/stdin', path.join(dir(), 'input.txt'));
    for (const file_path of ['notes.txt', 'input.txt']) {
      const result = await readTool.call({ file_path }, ctx());
      expect(isErrorOutput(result)).toBe(true);
      // /dev/stdin is stopped earlier, as a device file that can hold secrets.
      expect(outputText(result)).toMatch(/not a regular file|device file/);
    }
  });

  it('says so when offset is past the end of the file', async () => {
    await writeFile(path.join(dir(), 'short.txt'), 'only\n');
    const result = await readTool.call({ file_path: 'short.txt', offset: 5 }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('has 1 line.');
  });

  it('says when a file is empty', async () => {
    await writeFile(path.join(dir(), 'empty.txt'), '');
    expect(outputText(await readTool.call({ file_path: 'empty.txt' }, ctx()))).toContain('empty');
  });

  it('refuses a file outside the allowed directories', async () => {
    const other = await makeTempDir();
    await writeFile(path.join(other, 'secret.txt'), 'secret');
    const result = await readTool.call({ file_path: path.join(other, 'secret.txt') }, ctx());
    await rm(other, { recursive: true, force: true });
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).not.toContain('secret\n');
    expect(outputText(result)).toContain('outside the allowed directories');
  });

  it('records the content hash and mtime of what it read', async () => {
    const file = path.join(dir(), 'a.txt');
    await writeFile(file, 'alpha\n');
    await readTool.call({ file_path: 'a.txt' }, ctx());
    expect(ctx().fileState.get(file)).toEqual({
      hash: hashContent('alpha\n'),
      mtimeMs: (await stat(file)).mtimeMs,
    });
  });

  it('records a partial read too, since Edit checks its text against the real file', async () => {
    const file = path.join(dir(), 'long.txt');
    await writeFile(file, numbered(10));
    await readTool.call({ file_path: 'long.txt', offset: 2, limit: 1 }, ctx());
    expect(ctx().fileState.get(file)?.hash).toBe(hashContent(numbered(10)));
  });

  it('records nothing when the read fails', async () => {
    await writeFile(path.join(dir(), 'data.bin'), Buffer.from([0, 1, 2]));
    await readTool.call({ file_path: 'data.bin' }, ctx());
    expect(ctx().fileState.size).toBe(0);
  });

  it('is read-only, safe to run in parallel, and matched by its path relative to cwd', () => {
    expect(readTool.isReadOnly).toBe(true);
    expect(readTool.isConcurrencySafe).toBe(true);
    expect(
      readTool.permissionSubject?.({ file_path: path.join(dir(), 'src/a.ts') }, { cwd: dir() }),
    ).toBe('src/a.ts');
  });
});
