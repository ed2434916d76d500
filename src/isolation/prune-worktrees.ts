// `warren worktrees remove <agent-id>` and `warren worktrees prune`: removing agent worktrees a
// person no longer wants. Never one whose agent still runs; never one with changes that are not
// merged, unless `--force` says to discard them.
import { ConfigError } from '../core/config-error.js';
import { findWorktree, type ListedWorktree, listWorktrees } from './list-worktrees.js';
import { removeWorktree } from './remove-worktree.js';
import { git } from './run-git.js';

export interface PruneResult {
  removed: ListedWorktree[];
  kept: Array<{ worktree: ListedWorktree; reason: string }>;
}

/** Why `worktree` must stay, or undefined when it may go. */
function reasonToKeep(worktree: ListedWorktree, force: boolean): string | undefined {
  if (worktree.state === 'running') return 'its agent is still running';
  if (!force && worktree.changed && !worktree.merged) {
    return `it has changes that are not merged${worktree.shortStat ? ` (${worktree.shortStat})` : ''}`;
  }
  return undefined;
}

export async function removeAgentWorktree(
  cwd: string,
  idOrBranch: string,
  options: { force: boolean },
): Promise<ListedWorktree> {
  const { repository, worktree } = await findWorktree(cwd, idOrBranch, 'remove');
  const keep = reasonToKeep(worktree, options.force);
  if (keep) {
    throw new ConfigError(
      `warren worktrees remove ${idOrBranch}`,
      keep,
      worktree.state === 'running'
        ? 'wait until it has finished'
        : `merge it with \`warren worktrees merge ${worktree.agentId}\`, or pass --force to discard the changes`,
    );
  }
  await removeWorktree(repository.root, worktree);
  return worktree;
}

/**
 * Removes every agent worktree (and lone `warren/*` branch) that holds nothing unmerged, orphans
 * included; with `force`, those with changes too. One whose agent runs is never touched.
 * Orphans that stay are unlocked, so git and warren treat them as kept.
 */
export async function pruneWorktrees(
  cwd: string,
  options: { force: boolean },
): Promise<PruneResult> {
  const { repository, worktrees } = await listWorktrees(cwd);
  const result: PruneResult = { removed: [], kept: [] };
  for (const worktree of worktrees) {
    const keep = reasonToKeep(worktree, options.force);
    if (keep) {
      if (worktree.state === 'orphaned' && worktree.present) {
        await git(repository.root, ['worktree', 'unlock', worktree.path]).catch(() => {});
      }
      result.kept.push({ worktree, reason: keep });
      continue;
    }
    await removeWorktree(repository.root, worktree);
    result.removed.push(worktree);
  }
  return result;
}
