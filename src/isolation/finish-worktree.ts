// What happens to an agent's worktree when the agent ends, however it ends (done, failed,
// cancelled, stopped): unchanged, it goes with its branch; changed, what the agent left
// uncommitted is committed to its branch, the lock comes off, and it stays for review.

import { messageOf } from '../core/error-message.js';
import { checkoutStatus } from './checkout-status.js';
import type { AgentWorktree } from './create-worktree.js';
import { removeWorktree } from './remove-worktree.js';
import { GitError, git, NO_HOOKS } from './run-git.js';

export interface WorktreeOutcome {
  agentId: string;
  path: string;
  branch: string;
  /** The agent left something: uncommitted files, commits, or HEAD moved elsewhere. */
  changed: boolean;
  /** Still on disk: it has changes, or removing it failed. */
  kept: boolean;
  /** The commit warren made of what the agent left uncommitted; null when there was nothing. */
  commit: string | null;
  /** `git diff --stat` from the base to the worktree's files; empty when nothing changed. */
  diffStat: string;
  /** What went wrong while finishing, if anything; the worktree is then left as it is. */
  problem: string | null;
}

/** The author of warren's commits when the repository names none. */
const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'warren',
  GIT_AUTHOR_EMAIL: 'warren@localhost',
  GIT_COMMITTER_NAME: 'warren',
  GIT_COMMITTER_EMAIL: 'warren@localhost',
};

/** Never throws: whatever fails is reported in `problem`, and the worktree is kept. */
export async function finishWorktree(
  worktree: AgentWorktree,
  about: { description: string },
): Promise<WorktreeOutcome> {
  const outcome: WorktreeOutcome = {
    agentId: worktree.agentId,
    path: worktree.path,
    branch: worktree.branch,
    changed: true,
    kept: true,
    commit: null,
    diffStat: '',
    problem: null,
  };
  let status: Awaited<ReturnType<typeof checkoutStatus>>;
  try {
    status = await checkoutStatus(worktree.path);
  } catch (error) {
    await unlock(worktree);
    return { ...outcome, problem: `its state could not be read: ${gitMessageOf(error)}` };
  }
  const moved = status.head !== worktree.baseCommit || status.branch !== worktree.branch;
  if (!moved && status.changes.length === 0) {
    try {
      await removeWorktree(worktree.repository.root, worktree);
      return { ...outcome, changed: false, kept: false };
    } catch (error) {
      await unlock(worktree);
      return { ...outcome, changed: false, problem: `removing it failed: ${gitMessageOf(error)}` };
    }
  }
  if (status.branch !== worktree.branch) {
    // The agent pointed its HEAD elsewhere (`git symbolic-ref HEAD refs/heads/main`, a checkout):
    // what it left belongs on its own branch, never on the one it named.
    try {
      await git(worktree.path, ['symbolic-ref', 'HEAD', `refs/heads/${worktree.branch}`]);
      outcome.problem = `it moved its HEAD off ${worktree.branch} (to ${status.branch ?? 'a detached commit'}); warren put it back, and what it left is on ${worktree.branch}`;
    } catch (error) {
      await unlock(worktree);
      return {
        ...outcome,
        problem: `it moved its HEAD off ${worktree.branch}, which could not be put back: ${gitMessageOf(error)}`,
      };
    }
  }
  if (status.conflicts.length > 0) {
    // Committing would record the conflict markers as resolved: leave them for a person.
    outcome.problem = `it left unresolved conflicts (${status.conflicts.join(', ')}), so nothing was committed; they are in the worktree as it left them`;
  } else if (status.changes.length > 0) {
    try {
      outcome.commit = await commitLeftovers(worktree, about.description);
    } catch (error) {
      outcome.problem = `what it left uncommitted could not be committed (${gitMessageOf(error)}); it is still in the worktree`;
    }
  }
  await unlock(worktree);
  outcome.diffStat = await diffStat(worktree).catch(() => '');
  return outcome;
}

/** Commits every change and new file on the worktree's branch; returns the commit. */
async function commitLeftovers(worktree: AgentWorktree, description: string): Promise<string> {
  const dir = worktree.path;
  await git(dir, [...NO_HOOKS, 'add', '--all']);
  const title = description.replace(/\s+/g, ' ').trim().slice(0, 72) || 'agent work';
  const args = [
    ...NO_HOOKS,
    '-c',
    'commit.gpgsign=false',
    'commit',
    '--quiet',
    '--no-verify',
    '-m',
    title,
    '-m',
    `What warren agent ${worktree.agentId} left uncommitted when it finished.`,
  ];
  try {
    await git(dir, args);
  } catch (error) {
    const noIdentity =
      GitError.isInstance(error) &&
      /tell me who you are|unable to auto-detect|empty ident/i.test(error.detail);
    if (!noIdentity) throw error;
    await git(dir, args, { env: FALLBACK_IDENTITY });
  }
  return (await git(dir, ['rev-parse', 'HEAD'])).stdout.trim();
}

/** The worktree's files against its base, as `git diff --stat` shows it, at most 20 files. */
async function diffStat(worktree: { path: string; baseCommit: string }): Promise<string> {
  const { stdout } = await git(worktree.path, [
    'diff',
    '--stat=100',
    '--stat-count=20',
    worktree.baseCommit,
  ]);
  return stdout.replace(/\s+$/, '');
}

async function unlock(worktree: AgentWorktree): Promise<void> {
  await git(worktree.repository.root, ['worktree', 'unlock', worktree.path]).catch(() => {});
}

function gitMessageOf(error: unknown): string {
  return GitError.isInstance(error) ? error.detail : messageOf(error);
}
