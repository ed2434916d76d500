import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import {
  FileTooLargeError,
  NotRegularFileError,
  readRegularFile,
  readRegularFileSync,
  readRegularText,
  SystemFileError,
} from './regular-file.js';

const dir = useTempDir();

function fifo(name: string): string {
  const file = path.join(dir(), name);
  execFileSync('mkfifo', [file]);
  return file;
}

describe('readRegularFile', () => {
  it('reads a regular file, and one reached through a symlink', async () => {
    const file = path.join(dir(), 'a.md');
    await writeFile(file, '\uFEFFhello');
    await symlink(file, path.join(dir(), 'link.md'));
    expect(await readRegularText(file, { maxBytes: 100 })).toBe('hello');
    expect((await readRegularFile(path.join(dir(), 'link.md'), { maxBytes: 100 })).length).toBe(8);
    expect(readRegularFileSync(file, { maxBytes: 100 }).length).toBe(8);
  });

  it('refuses a FIFO with its path and the fix, instead of waiting for a writer', async () => {
    const file = fifo('pipe.md');
    await expect(readRegularFile(file, { maxBytes: 100 })).rejects.toThrow(
      `${file} is a FIFO (named pipe), not a regular file; warren reads only regular files (replace it with a regular file, or remove it)`,
    );
    expect(() => readRegularFileSync(file, { maxBytes: 100 })).toThrow(NotRegularFileError);
  });

  it('refuses a symlink to a FIFO, to /dev/stdin and to a device', async () => {
    await symlink(fifo('pipe'), path.join(dir(), 'to-pipe.md'));
    await symlink('/dev/stdin', path.join(dir(), 'stdin.md'));
    await symlink('/dev/zero', path.join(dir(), 'zero.md'));
    for (const name of ['to-pipe.md', 'stdin.md', 'zero.md']) {
      const file = path.join(dir(), name);
      await expect(readRegularFile(file, { maxBytes: 100 })).rejects.toThrow(NotRegularFileError);
      expect(() => readRegularFileSync(file, { maxBytes: 100 })).toThrow(NotRegularFileError);
    }
    await expect(readRegularFile('/dev/zero', { maxBytes: 100 })).rejects.toThrow(
      '/dev/zero is a character device, not a regular file',
    );
  });

  it('refuses a symlink into /proc, whose files look regular and hold the environment', async () => {
    const link = path.join(dir(), 'settings.json');
    await symlink('/proc/self/environ', link);
    await expect(readRegularFile(link, { maxBytes: 1 << 20 })).rejects.toThrow(
      `${link} is a process, system or device file (/proc/`,
    );
    expect(() => readRegularFileSync(link, { maxBytes: 1 << 20 })).toThrow(SystemFileError);
  });

  it('refuses a socket and a directory', async () => {
    const socket = path.join(dir(), 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      await expect(readRegularFile(socket, { maxBytes: 100 })).rejects.toThrow('is a socket');
    } finally {
      server.close();
    }
    await mkdir(path.join(dir(), 'd'));
    await expect(readRegularFile(path.join(dir(), 'd'), { maxBytes: 100 })).rejects.toThrow(
      'is a directory',
    );
  });

  it('refuses a file over the cap, naming its size and the cap', async () => {
    const file = path.join(dir(), 'big.json');
    await writeFile(file, 'x'.repeat(101));
    await expect(readRegularFile(file, { maxBytes: 100 })).rejects.toThrow(
      `${file} is 101 bytes, more than the 100 warren reads from such a file (shorten it)`,
    );
    expect(() => readRegularFileSync(file, { maxBytes: 100 })).toThrow(FileTooLargeError);
  });

  it('keeps the ordinary error of a missing file', async () => {
    await expect(
      readRegularFile(path.join(dir(), 'none'), { maxBytes: 100 }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
