// Removes an agent's worktree for good: its folder, git's entry for it, and its branch. Whoever
// calls it has decided that nothing in it is wanted; this only does the removing.
import { rm } from 'node:fs/promises';
import { GitError, git, NO_HOOKS } from './run-git.js';
import { withWorktreeAdminLock } from './worktree-admin-lock.js';

export async function removeWorktree(
  root: string,
  worktree: { path: string; branch: string | null },
): Promise<void> {
  // Twice forced: a lock and untracked or ignored files (build output) do not keep it.
  try {
    await withWorktreeAdminLock(root, () =>
      git(root, [...NO_HOOKS, 'worktree', 'remove', '--force', '--force', worktree.path]),
    );
  } catch (error) {
    // Only the branch is left (git has no worktree there): removing that is all there is to do.
    if (!(GitError.isInstance(error) && /is not a working tree/.test(error.detail))) throw error;
  }
  await rm(worktree.path, { recursive: true, force: true });
  if (worktree.branch !== null) await deleteBranch(root, worktree.branch);
}

/** Deletes a branch; one that is already gone is not an error. */
async function deleteBranch(root: string, branch: string): Promise<void> {
  try {
    await git(root, ['branch', '-D', '--end-of-options', branch]);
  } catch (error) {
    if (GitError.isInstance(error) && /not found/.test(error.detail)) return;
    throw error;
  }
}
