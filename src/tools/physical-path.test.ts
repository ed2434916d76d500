import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import { physicalPath } from './physical-path.js';

const dir = useTempDir();

describe('physicalPath', () => {
  it('takes .. after a symlink from where the link points, as the kernel does', async () => {
    await mkdir(path.join(dir(), 'a', 'deep'), { recursive: true });
    await writeFile(path.join(dir(), 'a', 'x.txt'), 'x');
    await symlink(path.join(dir(), 'a', 'deep'), path.join(dir(), 'link'));
    expect(physicalPath('link/../x.txt', dir())).toEqual({
      kind: 'found',
      path: path.join(dir(), 'a', 'x.txt'),
      isDirectory: false,
    });
  });

  it('names the first missing component of a path that does not exist', () => {
    expect(physicalPath('nope/../../etc/passwd', dir())).toEqual({
      kind: 'missing',
      path: path.join(dir(), 'nope'),
    });
  });

  it('follows a dangling symlink to where it points', async () => {
    await symlink('/nowhere/at/all', path.join(dir(), 'dangling'));
    expect(physicalPath('dangling', dir())).toEqual({ kind: 'missing', path: '/nowhere' });
  });

  it('flags /proc, /sys and devices, but not /dev/null', () => {
    expect(physicalPath('/proc/self/environ', dir()).kind).toBe('system');
    expect(physicalPath('/dev/stdin', dir()).kind).toBe('system');
    expect(physicalPath('/dev/null', dir())).toEqual({
      kind: 'found',
      path: '/dev/null',
      isDirectory: false,
    });
  });

  it('reports a symlink loop', async () => {
    await symlink('b', path.join(dir(), 'a'));
    await symlink('a', path.join(dir(), 'b'));
    expect(physicalPath('a/x', dir())).toEqual({ kind: 'loop' });
  });
});
