// What of a repository's git directory a command in a linked worktree may write: the worktree's
// own admin folder, the object store, and the folder of its branch's ref and reflog; never the
// config, hooks, info/, packed-refs, the user's HEAD or other namespaces' refs. Read from the
// files git itself follows (`.git`, `commondir`, `HEAD`), each checked to stay in its place,
// once per worktree: after that the command could have changed them.
import { readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface GitGrants {
  /** Folders the command may write. */
  writable: string[];
  /** Paths inside those that stay read-only: what would redirect git or run code. */
  readOnly: string[];
}

const NONE: GitGrants = { writable: [], readOnly: [] };

/**
 * Grants as first seen, before any command ran in the worktree: a command may since have pointed
 * the worktree's HEAD at the user's branch (`git checkout main`), which must not earn it that
 * branch's folder.
 */
const firstSeen = new Map<string, GitGrants>();

/** The grants of the linked worktree at `worktree`, as they were the first time it was asked. */
export function worktreeGrants(worktree: string): GitGrants {
  let grants = firstSeen.get(worktree);
  if (grants === undefined) {
    grants = linkedWorktreeGrants(worktree);
    firstSeen.set(worktree, grants);
  }
  return grants;
}

/**
 * The grants of a linked worktree at `worktree` (whose `.git` is a file); none for a main
 * checkout, whose `.git` lies inside it, or for anything git would not call a worktree.
 */
function linkedWorktreeGrants(worktree: string): GitGrants {
  const dotGit = path.join(worktree, '.git');
  const pointer = readSmall(dotGit)
    ?.match(/^gitdir: (.+)$/m)?.[1]
    ?.trim();
  if (pointer === undefined) return NONE;
  const adminDir = realOrUndefined(path.resolve(worktree, pointer));
  if (adminDir === undefined) return NONE;
  const common = readSmall(path.join(adminDir, 'commondir'))?.trim();
  const commonDir = common && realOrUndefined(path.resolve(adminDir, common));
  // git puts a worktree's admin folder at <common>/worktrees/<name>: anything else is not one
  // git made, and gets nothing.
  if (!commonDir || path.dirname(adminDir) !== path.join(commonDir, 'worktrees')) return NONE;
  const writable = [adminDir, path.join(commonDir, 'objects')];
  // A per-worktree config is read by git (and by warren's own git calls in the worktree) once
  // the repository turns worktreeConfig on: made empty here so it can be held read-only.
  try {
    writeFileSync(path.join(adminDir, 'config.worktree'), '', { flag: 'a' });
  } catch {
    // not ours to make: it then stays absent, and the repository's setting decides
  }
  const readOnly = [
    dotGit,
    path.join(adminDir, 'commondir'),
    path.join(adminDir, 'gitdir'),
    path.join(adminDir, 'config.worktree'),
    // Alternates would point the user's repository at objects of the command's choosing.
    path.join(commonDir, 'objects', 'info'),
  ];
  const branchRef = readSmall(path.join(adminDir, 'HEAD'))?.match(
    /^ref: (refs\/heads\/\S+)$/m,
  )?.[1];
  if (branchRef !== undefined && !branchRef.split('/').includes('..')) {
    const folder = path.dirname(branchRef);
    // warren's agents work on `warren/<id>`: the folder holds agent branches only. A worktree
    // of the user's own on a branch at the top gets refs/heads, as its checkout would.
    writable.push(path.join(commonDir, folder), path.join(commonDir, 'logs', folder));
  }
  return { writable: writable.filter(isDirectory), readOnly: readOnly.filter(exists) };
}

function readSmall(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    return readFileSync(file, 'utf8').slice(0, 4096);
  } catch {
    return undefined;
  }
}

function realOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
