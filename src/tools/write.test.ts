import { chmod, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/temp-dir.js';
import { isErrorOutput, outputText, useToolSandbox } from '../testing/tool-context.js';
import { readTool } from './read.js';
import { writeFileAtomic, writeTool } from './write.js';

const { dir, ctx } = useToolSandbox();

describe('Write', () => {
  it('creates a new file and its missing parent directories', async () => {
    const result = await writeTool.call({ file_path: 'a/b/new.txt', content: 'one\ntwo\n' }, ctx());
    expect(result).toBe('Created a/b/new.txt (2 lines).');
    expect(await readFile(path.join(dir(), 'a/b/new.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('refuses to overwrite an existing file this agent has not read', async () => {
    await writeFile(path.join(dir(), 'notes.txt'), 'keep me');
    const result = await writeTool.call({ file_path: 'notes.txt', content: 'gone' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('has not been read yet');
    expect(await readFile(path.join(dir(), 'notes.txt'), 'utf8')).toBe('keep me');
  });

  it('overwrites an existing file after reading it', async () => {
    await writeFile(path.join(dir(), 'notes.txt'), 'old');
    await readTool.call({ file_path: 'notes.txt' }, ctx());
    const result = await writeTool.call({ file_path: 'notes.txt', content: 'new' }, ctx());
    expect(result).toBe('Updated notes.txt (1 line).');
    expect(await readFile(path.join(dir(), 'notes.txt'), 'utf8')).toBe('new');
  });

  it('refuses when the file changed after it was read, and asks for a fresh read', async () => {
    await writeFile(path.join(dir(), 'notes.txt'), 'v1');
    await readTool.call({ file_path: 'notes.txt' }, ctx());
    await writeFile(path.join(dir(), 'notes.txt'), 'v2 by someone else');
    const result = await writeTool.call({ file_path: 'notes.txt', content: 'mine' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('Read it again');
    expect(await readFile(path.join(dir(), 'notes.txt'), 'utf8')).toBe('v2 by someone else');
  });

  it('lets the agent write the same file again without re-reading its own write', async () => {
    await writeTool.call({ file_path: 'draft.txt', content: 'first' }, ctx());
    const second = await writeTool.call({ file_path: 'draft.txt', content: 'second' }, ctx());
    expect(isErrorOutput(second)).toBe(false);
    expect(await readFile(path.join(dir(), 'draft.txt'), 'utf8')).toBe('second');
  });

  it('replaces the file by renaming a complete temp file over it, leaving no temp behind', async () => {
    const file = path.join(dir(), 'data.txt');
    await writeFile(file, 'old');
    const before = await stat(file);
    await readTool.call({ file_path: 'data.txt' }, ctx());
    await writeTool.call({ file_path: 'data.txt', content: 'new' }, ctx());
    expect((await stat(file)).ino).not.toBe(before.ino);
    expect(await readdir(dir())).toEqual(['data.txt']);
  });

  it('keeps the permissions of the file it replaces', async () => {
    const file = path.join(dir(), 'script.sh');
    await writeFile(file, 'echo hi\n');
    await chmod(file, 0o750);
    await readTool.call({ file_path: 'script.sh' }, ctx());
    await writeTool.call({ file_path: 'script.sh', content: 'echo bye\n' }, ctx());
    expect((await stat(file)).mode & 0o777).toBe(0o750);
  });

  it('refuses a path outside the allowed directories', async () => {
    const other = await makeTempDir();
    const result = await writeTool.call(
      { file_path: path.join(other, 'x.txt'), content: 'x' },
      ctx(),
    );
    const created = await readdir(other);
    await rm(other, { recursive: true, force: true });
    expect(isErrorOutput(result)).toBe(true);
    expect(created).toEqual([]);
  });

  it('refuses to replace a directory', async () => {
    await writeTool.call({ file_path: 'sub/x.txt', content: 'x' }, ctx());
    const result = await writeTool.call({ file_path: 'sub', content: 'x' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('is a directory');
  });

  it('changes files, so it never runs in parallel', () => {
    expect(writeTool.isReadOnly).toBe(false);
    expect(writeTool.isConcurrencySafe).toBe(false);
    expect(
      writeTool.permissionSubject?.({ file_path: 'src/a.ts', content: '' }, { cwd: dir() }),
    ).toBe('src/a.ts');
  });

  it('at the last moment, replaces only the content it checked and creates only a file that is still missing', async () => {
    const file = path.join(dir(), 'late.txt');
    await writeFile(file, 'made by an editor meanwhile');
    expect(await writeFileAtomic(file, 'mine', undefined)).toBe('changed');
    expect(await writeFileAtomic(file, 'mine', Buffer.from('what I read'))).toBe('changed');
    expect(await readFile(file, 'utf8')).toBe('made by an editor meanwhile');
    expect(await readdir(dir())).toEqual(['late.txt']);
    const created = await writeFileAtomic(path.join(dir(), 'new.txt'), 'fresh', undefined);
    expect(typeof created).toBe('number');
    expect(await readdir(dir())).toEqual(['late.txt', 'new.txt']);
  });
});
