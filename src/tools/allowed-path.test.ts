import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import { displayPath, permissionPath, resolveAllowedPath } from './allowed-path.js';

const root = useTempDir();
let project: string;
let outside: string;

beforeEach(async () => {
  project = path.join(root(), 'project');
  outside = path.join(root(), 'outside');
  await mkdir(project);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
});

const scope = () => ({ cwd: project, allowedDirs: [project] });

describe('resolveAllowedPath', () => {
  it('resolves a relative path against the working directory', async () => {
    expect(await resolveAllowedPath('src/a.ts', scope())).toEqual({
      ok: true,
      path: path.join(project, 'src/a.ts'),
    });
  });

  it('accepts a file that does not exist yet inside an allowed directory', async () => {
    const result = await resolveAllowedPath(path.join(project, 'new/deeper/file.txt'), scope());
    expect(result).toEqual({ ok: true, path: path.join(project, 'new/deeper/file.txt') });
  });

  it.each(['/proc/self/environ', '/proc/1/cmdline', '/dev/stdin'])(
    'refuses %s even when / is allowed: process state holds the environment',
    async (file) => {
      const result = await resolveAllowedPath(file, { cwd: project, allowedDirs: ['/'] });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.message).toContain('process, system or device file');
    },
  );

  it('refuses a path outside the allowed directories and names them', async () => {
    const result = await resolveAllowedPath(path.join(outside, 'secret.txt'), scope());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('outside the allowed directories');
    expect(result.message).toContain(project);
  });

  it('refuses a relative path that climbs out with ..', async () => {
    const result = await resolveAllowedPath('../outside/secret.txt', scope());
    expect(result.ok).toBe(false);
  });

  it('does not mistake a sibling that shares a name prefix for the allowed directory', async () => {
    await mkdir(`${project}-evil`);
    const result = await resolveAllowedPath(`${project}-evil/x.txt`, scope());
    expect(result.ok).toBe(false);
  });

  it('accepts a path in any of the allowed directories', async () => {
    const result = await resolveAllowedPath(path.join(outside, 'secret.txt'), {
      cwd: project,
      allowedDirs: [project, outside],
    });
    expect(result).toEqual({ ok: true, path: path.join(outside, 'secret.txt') });
  });

  it('refuses a symlink inside the project that points outside it', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(project, 'link.txt'));
    const result = await resolveAllowedPath('link.txt', scope());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('symlink');
  });

  it('refuses a new file under a symlinked directory that points outside', async () => {
    await symlink(outside, path.join(project, 'escape'));
    const result = await resolveAllowedPath('escape/new.txt', scope());
    expect(result.ok).toBe(false);
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    await symlink(path.join(outside, 'not-yet.txt'), path.join(project, 'dangling.txt'));
    const result = await resolveAllowedPath('dangling.txt', scope());
    expect(result.ok).toBe(false);
  });

  it('follows a symlink that stays inside to its real path', async () => {
    await writeFile(path.join(project, 'real.txt'), 'x');
    await symlink(path.join(project, 'real.txt'), path.join(project, 'alias.txt'));
    expect(await resolveAllowedPath('alias.txt', scope())).toEqual({
      ok: true,
      path: path.join(project, 'real.txt'),
    });
  });

  it('refuses a symlink loop', async () => {
    await symlink(path.join(project, 'b'), path.join(project, 'a'));
    await symlink(path.join(project, 'a'), path.join(project, 'b'));
    const result = await resolveAllowedPath('a', scope());
    expect(result.ok).toBe(false);
  });

  it('accepts paths when the allowed directory itself is reached through a symlink', async () => {
    const alias = path.join(root(), 'alias');
    await symlink(project, alias);
    const result = await resolveAllowedPath('file.txt', { cwd: alias, allowedDirs: [alias] });
    expect(result).toEqual({ ok: true, path: path.join(project, 'file.txt') });
  });
});

describe('displayPath and permissionPath', () => {
  it('shows paths inside cwd relative to it and others absolute', () => {
    expect(displayPath('/work/app/src/a.ts', '/work/app')).toBe('src/a.ts');
    expect(displayPath('/work/app', '/work/app')).toBe('.');
    expect(displayPath('/etc/hosts', '/work/app')).toBe('/etc/hosts');
  });

  it('gives permission rules the path relative to cwd', () => {
    expect(permissionPath('/work/app/src/a.ts', '/work/app')).toBe('src/a.ts');
    expect(permissionPath('src/a.ts', '/work/app')).toBe('src/a.ts');
    expect(permissionPath('.', '/work/app')).toBe('.');
    expect(permissionPath('/etc/hosts', '/work/app')).toBe('../../etc/hosts');
  });
});
