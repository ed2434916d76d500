// Where file tools may reach: resolves a model-given path to its real location and refuses
// anything outside the agent's allowed directories, symlinks included; names it back to the model.
import type { Stats } from 'node:fs';
import { readlink, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../core/tool.js';
import { isSystemPath } from './physical-path.js';

export type AllowedPath =
  | {
      ok: true;
      /** Canonical absolute path: symlinks resolved, a missing tail kept as given. */
      path: string;
    }
  | {
      ok: false;
      /** For the model: what was refused and which directories are allowed. */
      message: string;
    };

/** A tool's path input, resolved and allowed, with the name the model is shown for it. */
export type ToolPath =
  | {
      ok: true;
      path: string;
      /** `path` as the model should see it: relative to cwd when inside it. */
      shown: string;
      /** The cwd's real location, for naming other paths the tool reports. */
      realCwd: string;
    }
  | { ok: false; message: string };

type PathScope = Pick<ToolContext, 'cwd' | 'allowedDirs'>;

// Linux gives up after 40 links; a longer chain is a loop, and a loop is never a place to write.
const MAX_SYMLINK_HOPS = 40;

/**
 * Resolves `filePath` (relative to `scope.cwd`, `~` for home) and checks that its real location,
 * or the real location it would have once created, lies inside one of `scope.allowedDirs`.
 */
export async function resolveAllowedPath(filePath: string, scope: PathScope): Promise<AllowedPath> {
  if (filePath.includes('\0')) return { ok: false, message: 'The path contains a NUL byte.' };
  const requested = absolutePath(filePath, scope.cwd);
  const real = await canonicalPath(requested, 0);
  if (real === undefined) {
    return { ok: false, message: `${requested} is part of a symlink loop.` };
  }
  if (isSystemPath(real)) {
    return {
      ok: false,
      message: `${requested} is a process, system or device file (${real}), which can hold secrets such as the environment. File tools do not open those.`,
    };
  }
  const allowed = await Promise.all(scope.allowedDirs.map((dir) => realDir(dir)));
  if (allowed.some((dir) => isInside(real, dir))) return { ok: true, path: real };
  const via = real === requested ? '' : ` (it resolves through a symlink to ${real})`;
  return {
    ok: false,
    message: `${requested} is outside the allowed directories${via}. Allowed: ${allowed.join(', ')}. Use a path inside one of them.`,
  };
}

/** What every file tool does first with its path input: resolve it, refuse it, or name it. */
export async function resolveToolPath(filePath: string, scope: PathScope): Promise<ToolPath> {
  const resolved = await resolveAllowedPath(filePath, scope);
  if (!resolved.ok) return resolved;
  const realCwd = await realDir(scope.cwd);
  return { ok: true, path: resolved.path, shown: displayPath(resolved.path, realCwd), realCwd };
}

/** The real path of a directory, or the path itself when it does not exist (yet). */
export async function realDir(dir: string): Promise<string> {
  return (await canonicalPath(path.resolve(dir), 0)) ?? path.resolve(dir);
}

/**
 * Where writing the absolute path `absPath` would land: symlinks resolved, dangling ones
 * followed, a missing tail kept. Undefined for a symlink loop.
 */
export function canonicalLocation(absPath: string): Promise<string | undefined> {
  return canonicalPath(path.resolve(absPath), 0);
}

/** How tools show a path to the model: relative to cwd when inside it, absolute otherwise. */
export function displayPath(absPath: string, realCwd: string): string {
  if (!isInside(absPath, realCwd)) return absPath;
  return path.relative(realCwd, absPath) || '.';
}

/** What permission rules such as `Edit(src/**)` match: the path relative to cwd, unresolved. */
export function permissionPath(filePath: string, cwd: string): string {
  return path.relative(cwd, absolutePath(filePath, cwd)) || '.';
}

export function isInside(target: string, dir: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function absolutePath(filePath: string, cwd: string): string {
  const expanded =
    filePath === '~' || filePath.startsWith('~/') ? homedir() + filePath.slice(1) : filePath;
  return path.resolve(cwd, expanded);
}

/**
 * realpath for paths that may not exist yet: the nearest existing ancestor is resolved and the
 * rest appended. A dangling symlink is followed to where it points, since writing through it
 * would create its target. Undefined for a symlink loop.
 */
async function canonicalPath(absPath: string, hops: number): Promise<string | undefined> {
  if (hops > MAX_SYMLINK_HOPS) return undefined;
  try {
    return await realpath(absPath);
  } catch (error) {
    if (errorCode(error) === 'ELOOP') return undefined;
  }
  const parent = path.dirname(absPath);
  if (parent === absPath) return absPath;
  const link = await readlink(absPath).catch(() => undefined);
  if (link !== undefined) return canonicalPath(path.resolve(parent, link), hops + 1);
  const realParent = await canonicalPath(parent, hops);
  return realParent === undefined ? undefined : path.join(realParent, path.basename(absPath));
}

/** The errno code (`ENOENT`, …) of a failed fs call, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** The file's stats, or undefined when nothing is there; any other failure throws. */
export async function statIfExists(file: string): Promise<Stats | undefined> {
  return stat(file).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  });
}
