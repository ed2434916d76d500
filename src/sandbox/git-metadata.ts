// What of a repository's git directory a command may write. In a main checkout, what lies inside
// its writable folder, or its `.git` when it works in a subfolder, less config, hooks and info/.
// In a linked worktree: the worktree's
// own admin folder, the object store, and its own branch's ref and reflog (their folders, since
// git writes a ref by renaming a lock file, with every other entry held read-only); never the
// config, hooks, info/, packed-refs, the user's HEAD or any other branch. Read from the
// files git itself follows (`.git`, `commondir`, `HEAD`), each checked to stay in its place,
// once per worktree: after that the command could have changed them.
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface GitGrants {
  /** Folders the command may write. */
  writable: string[];
  /** Paths inside those that stay read-only: what would redirect git or run code. */
  readOnly: string[];
  /**
   * The folders of the branch's ref and reflog, and the branch's own name in them: what else is
   * there (other branches) is held read-only, looked up at each command.
   */
  refFolders: string[];
  ownRef: string | undefined;
}

const NONE: GitGrants = { writable: [], readOnly: [], refFolders: [], ownRef: undefined };

/** What is in the ref folders now besides the branch's own ref: to hold read-only. */
export function otherRefs(grants: GitGrants): string[] {
  const own = grants.ownRef;
  return grants.refFolders.flatMap((folder) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    return names
      .filter((name) => name !== own && name !== `${own}.lock`)
      .map((name) => path.join(folder, name));
  });
}

/**
 * Grants as first seen, before any command ran in the worktree: a command may since have pointed
 * the worktree's HEAD at the user's branch (`git checkout main`), which must not earn it that
 * branch's folder.
 */
const firstSeen = new Map<string, GitGrants>();

/** The files that make a `.git` folder run code or point elsewhere: never writable. */
const GIT_KEPT = ['config', 'hooks', 'info'];

/**
 * The git metadata a command writing `dir` needs, from the checkout `dir` lies in: a linked
 * worktree's grants (below), or the `.git` folder of a main checkout whose root is above `dir`
 * (a checkout at `dir` itself has its `.git` inside, held as the writable folder's own).
 */
export function checkoutGrants(dir: string): GitGrants {
  for (let at = dir; ; at = path.dirname(at)) {
    const dotGit = path.join(at, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isFile()) return worktreeGrants(at);
    if (stat?.isDirectory()) {
      if (at === dir) return NONE;
      const kept = GIT_KEPT.map((name) => path.join(dotGit, name)).filter(exists);
      return { writable: [dotGit], readOnly: kept, refFolders: [], ownRef: undefined };
    }
    if (path.dirname(at) === at) return NONE;
  }
}

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
  // git puts a worktree's admin folder at <common>/worktrees/<name>, and its `gitdir` names the
  // worktree's `.git` back: anything else is not one git made for this folder (a `.git` file
  // planted to borrow another repository's worktree), and gets nothing.
  if (!commonDir || path.dirname(adminDir) !== path.join(commonDir, 'worktrees')) return NONE;
  const back = readSmall(path.join(adminDir, 'gitdir'))?.trim();
  if (
    back === undefined ||
    realOrUndefined(path.resolve(adminDir, back)) !== realOrUndefined(dotGit)
  ) {
    return NONE;
  }
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
  let refFolders: string[] = [];
  let ownRef: string | undefined;
  if (branchRef !== undefined && !branchRef.split('/').includes('..')) {
    const folder = path.dirname(branchRef);
    refFolders = [path.join(commonDir, folder), path.join(commonDir, 'logs', folder)].filter(
      isDirectory,
    );
    ownRef = path.basename(branchRef);
  }
  return {
    writable: [...writable, ...refFolders].filter(isDirectory),
    readOnly: readOnly.filter(exists),
    refFolders,
    ownRef,
  };
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
