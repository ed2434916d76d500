// Where a path a shell command is given really leads, found as the kernel finds it: one component
// at a time, symlinks followed, `..` taken after them. Synchronous, for the read-only check.
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { isSystemPath } from '../core/system-path.js';

export type PhysicalPath =
  /** It exists; `path` is its real location. */
  | { kind: 'found'; path: string; isDirectory: boolean }
  /** Nothing is at `path`, the first component that is missing (or not searchable), so nothing under it can be opened. */
  | { kind: 'missing'; path: string }
  /** It passes through /proc, /sys or a device: process state such as the environment. */
  | { kind: 'system'; path: string }
  | { kind: 'loop' };

// Linux gives up after 40 links.
const MAX_SYMLINK_HOPS = 40;

/**
 * Resolves `target` (absolute, or relative to `from`, itself a real directory path) without
 * the lexical shortcut of `path.resolve`: `link/..` is the parent of where `link` points.
 */
export function physicalPath(target: string, from: string): PhysicalPath {
  return walk(target, from, { hops: 0 });
}

// Moved to core (the reader of supplied files refuses these paths too); exported here as before.
export { isSystemPath };

function walk(target: string, from: string, links: { hops: number }): PhysicalPath {
  let current = target.startsWith('/') ? '/' : from;
  const parts = target.split('/').filter((part) => part !== '' && part !== '.');
  for (const [index, part] of parts.entries()) {
    const isLast = index === parts.length - 1;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    const stats = lstatOrUndefined(next);
    if (stats === undefined) return { kind: 'missing', path: next };
    if (stats.isSymbolicLink()) {
      links.hops++;
      if (links.hops > MAX_SYMLINK_HOPS) return { kind: 'loop' };
      const pointsTo = readlinkOrUndefined(next);
      if (pointsTo === undefined) return { kind: 'missing', path: next };
      const linked = walk(pointsTo, current, links);
      if (linked.kind !== 'found') return linked;
      current = linked.path;
    } else {
      current = next;
    }
    // /dev is only a way to /dev/null; /proc and /sys are refused wherever the walk passes.
    const passing = !isLast && current === '/dev';
    if (!passing && isSystemPath(current)) return { kind: 'system', path: current };
  }
  if (isSystemPath(current)) return { kind: 'system', path: current };
  return {
    kind: 'found',
    path: current,
    isDirectory: lstatOrUndefined(current)?.isDirectory() ?? false,
  };
}

/** lstat, or undefined when the path cannot be reached: missing, under a file, not searchable. */
function lstatOrUndefined(file: string) {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readlinkOrUndefined(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}
