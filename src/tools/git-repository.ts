// Which git repository a command run in a directory would read, found the way git finds it:
// the nearest `.git` (a directory, or a file naming one) at or above the directory.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { readRegularTextSync } from '../core/regular-file.js';
import { physicalPath } from './physical-path.js';

export interface GitRepository {
  /** The directory holding `.git`: the top of the working tree. */
  top: string;
  /** The real path of the git directory, which may sit elsewhere (a linked worktree's). */
  gitDir: string;
  /** Set when gitDir is a linked worktree's, whose entry points back at this `.git` file. */
  isLinkedWorktree: boolean;
}

/** The repository git would use in `dir` (a real path), or undefined outside any repository. */
export function findGitRepository(dir: string): GitRepository | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const found = repositoryAt(current);
    if (found !== undefined) return found;
    if (path.dirname(current) === current) return undefined;
  }
}

function repositoryAt(dir: string): GitRepository | undefined {
  const dotGit = path.join(dir, '.git');
  const stats = lstatSync(dotGit, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  const resolved = physicalPath('.git', dir);
  const gitDir = resolved.kind === 'found' ? resolved.path : dotGit;
  if (!stats.isFile()) return { top: dir, gitDir, isLinkedWorktree: false };
  // A `.git` file says `gitdir: <path>`: a submodule's or a linked worktree's git directory.
  const named = /^gitdir: (.+)$/m.exec(readText(dotGit))?.[1]?.trim();
  if (named === undefined) return { top: dir, gitDir, isLinkedWorktree: false };
  const target = physicalPath(named, dir);
  const realGitDir = target.kind === 'found' ? target.path : path.resolve(dir, named);
  const backLink = readText(path.join(realGitDir, 'gitdir')).trim();
  const backTarget = backLink === '' ? undefined : physicalPath(backLink, realGitDir);
  const isLinkedWorktree =
    backTarget?.kind === 'found' &&
    backTarget.path === dotGit &&
    path.basename(path.dirname(realGitDir)) === 'worktrees';
  return { top: dir, gitDir: realGitDir, isLinkedWorktree };
}

/** A `gitdir:` line is one path. */
const GIT_POINTER_MAX_BYTES = 64 * 1024;

function readText(file: string): string {
  try {
    // A cloned repository names these files: a FIFO among them must not stop warren.
    return readRegularTextSync(file, { maxBytes: GIT_POINTER_MAX_BYTES });
  } catch {
    return '';
  }
}
