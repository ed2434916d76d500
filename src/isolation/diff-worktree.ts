// `warren worktrees diff <agent-id>`: what an agent changed, as a patch against where its
// worktree branched from, uncommitted changes included, and the new files it left untracked.
import { findWorktree, type ListedWorktree } from './list-worktrees.js';
import { git } from './run-git.js';

export interface WorktreeDiff {
  worktree: ListedWorktree;
  base: string | null;
  stat: string;
  patch: string;
  /** New files not yet committed: a patch of tracked files does not show them. */
  untracked: string[];
}

export async function diffWorktree(cwd: string, idOrBranch: string): Promise<WorktreeDiff> {
  const { repository, worktree } = await findWorktree(cwd, idOrBranch, 'diff');
  const base = worktree.baseCommit;
  if (base === null) return { worktree, base, stat: '', patch: '', untracked: [] };
  // In the worktree: its files against the base; without one: the branch against the base.
  const [dir, range] = worktree.present
    ? [worktree.path, [base]]
    : [repository.root, [base, worktree.head ?? worktree.branch]];
  const [stat, patch, untracked] = await Promise.all([
    git(dir, ['diff', '--stat=100', ...range]),
    git(dir, ['diff', ...range]),
    worktree.present
      ? git(dir, ['ls-files', '--others', '--exclude-standard', '-z'])
      : Promise.resolve({ stdout: '' }),
  ]);
  return {
    worktree,
    base,
    stat: stat.stdout.replace(/\s+$/, ''),
    patch: patch.stdout,
    untracked: untracked.stdout.split('\0').filter(Boolean),
  };
}
