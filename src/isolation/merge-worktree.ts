// `warren worktrees merge <agent-id>`: merges an agent's branch into the branch the checkout is
// on. A dry run (`git merge-tree`) comes first, so a conflict is reported before anything is
// touched; if git still fails, an unfinished merge is aborted. Nothing is ever left half-done.
import { ConfigError } from '../core/config-error.js';
import { hasErrorMark } from '../core/error-mark.js';
import { findWorktree } from './list-worktrees.js';
import { GitError, git } from './run-git.js';

export interface MergeResult {
  agentId: string;
  branch: string;
  /** The branch merged into. */
  into: string;
  /** The merge commit; null when the branch was merged already. */
  commit: string | null;
  /** `git diff --stat` of what the merge brought in. */
  diffStat: string;
  /** The worktree that stays until removed. */
  path: string;
  present: boolean;
}

/** A merge git could not do: conflicts, or a failure it reported. Nothing was changed. */
export class MergeError extends Error {
  readonly isMergeError = true;
  readonly conflicts: readonly string[];
  constructor(message: string, conflicts: readonly string[] = []) {
    super(message);
    this.name = 'MergeError';
    this.conflicts = conflicts;
  }

  static isInstance(error: unknown): error is MergeError {
    return hasErrorMark(error, 'isMergeError');
  }
}

export async function mergeWorktree(cwd: string, idOrBranch: string): Promise<MergeResult> {
  const { repository, worktree } = await findWorktree(cwd, idOrBranch, 'merge');
  const where = `warren worktrees merge ${idOrBranch}`;
  const { toplevel } = repository;
  if (worktree.state === 'running') {
    throw new ConfigError(where, 'its agent is still running', 'wait until it has finished');
  }
  if (worktree.path === toplevel) {
    throw new ConfigError(
      where,
      "this is the agent's own worktree",
      'run it in the checkout to merge into',
    );
  }
  if (worktree.uncommitted.length > 0) {
    throw new ConfigError(
      where,
      `its worktree has uncommitted changes (${worktree.uncommitted.slice(0, 5).join(', ')}${worktree.uncommitted.length > 5 ? ', …' : ''})`,
      `commit them in ${worktree.path}, or discard them, first`,
    );
  }
  const into = await git(toplevel, ['symbolic-ref', '--quiet', '--short', 'HEAD'], {
    okCodes: [1],
  });
  if (into.code !== 0) {
    throw new ConfigError(
      where,
      `HEAD is detached in ${toplevel}`,
      'check out the branch to merge into, then run it again',
    );
  }
  const target = into.stdout.trim();
  const result = {
    agentId: worktree.agentId,
    branch: worktree.branch,
    into: target,
    path: worktree.path,
    present: worktree.present,
  };
  if (worktree.merged) return { ...result, commit: null, diffStat: '' };
  if (
    (await git(toplevel, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'], { okCodes: [1] }))
      .code === 0
  ) {
    throw new ConfigError(
      where,
      `a merge is already in progress in ${toplevel}`,
      'finish it (git commit) or abort it (git merge --abort) first',
    );
  }
  await dryRun(toplevel, worktree.branch, target);
  const title = worktree.metadata?.description.replace(/\s+/g, ' ').trim().slice(0, 60);
  const message = `Merge ${worktree.branch}${title ? `: ${title}` : ''}`;
  const before = (await git(toplevel, ['rev-parse', 'HEAD'])).stdout.trim();
  try {
    await git(toplevel, [
      'merge',
      '--no-ff',
      '--no-edit',
      '-m',
      message,
      '--end-of-options',
      worktree.branch,
    ]);
  } catch (error) {
    // A merge git started and could not finish is undone; one it refused to start left nothing.
    const started = await git(toplevel, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'], {
      okCodes: [1],
    }).catch(() => undefined);
    if (started?.code === 0) await git(toplevel, ['merge', '--abort']).catch(() => {});
    const detail = GitError.isInstance(error) ? error.detail : String(error);
    throw new MergeError(
      `Merging ${worktree.branch} into ${target} failed, and nothing was changed: ${detail}`,
    );
  }
  const commit = (await git(toplevel, ['rev-parse', 'HEAD'])).stdout.trim();
  const diffStat = (await git(toplevel, ['diff', '--stat=100', before, commit])).stdout.replace(
    /\s+$/,
    '',
  );
  return { ...result, commit, diffStat };
}

/** `git merge-tree --write-tree`: the merge computed in the object store, touching no file. */
async function dryRun(toplevel: string, branch: string, target: string): Promise<void> {
  let probe: { code: number; stdout: string };
  try {
    probe = await git(
      toplevel,
      ['merge-tree', '--write-tree', '--name-only', '--no-messages', 'HEAD', branch],
      { okCodes: [1] },
    );
  } catch (error) {
    // Older git (before 2.38) has no --write-tree: the real merge then decides, and is aborted on conflict.
    if (GitError.isInstance(error) && /usage|unknown option|--write-tree/.test(error.detail))
      return;
    throw error;
  }
  if (probe.code === 0) return;
  const conflicts = [...new Set(probe.stdout.split('\n').slice(1).filter(Boolean))];
  throw new MergeError(
    `Merging ${branch} into ${target} would conflict in ${conflicts.join(', ')}. Nothing was changed. To merge it by hand: git merge ${branch}, resolve the conflicts, then commit.`,
    conflicts,
  );
}
