// Makes an agent's worktree with real git: `<root>/.warren/worktrees/<agent-id>` on a new branch
// `warren/<agent-id>` from the parent's HEAD (or a ref), locked while the agent runs. On any
// failure it takes back what it made, so nothing is left behind.
import { existsSync } from 'node:fs';
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hasErrorMark } from '../core/error-mark.js';
import { checkoutStatus } from './checkout-status.js';
import { type Repository, repositoryAndRevision } from './git-repository.js';
import { GitError, git, NO_HOOKS } from './run-git.js';
import { withWorktreeAdminLock } from './worktree-admin-lock.js';
import { excludeWorktrees } from './worktree-exclude.js';
import { adminDirOf, newMetadata, writeMetadata } from './worktree-metadata.js';
import { agentIdProblem, branchFor, worktreePathFor } from './worktree-names.js';

export interface WorktreeRequest {
  /** Where the parent works; the worktree branches from this checkout's HEAD. */
  cwd: string;
  agentId: string;
  parentId: string | null;
  agentType: string;
  description: string;
  /** `head` (the default) or a ref to branch from: a branch, a tag, a commit. */
  base?: string | undefined;
}

/** An agent's worktree as made: where it is, its branch, and what it started from. */
export interface AgentWorktree {
  agentId: string;
  path: string;
  branch: string;
  repository: Repository;
  /** The ref as asked (`HEAD` for the default) and the commit it meant. */
  baseRef: string;
  baseCommit: string;
  /** Paths the parent's checkout had uncommitted changes in: none of them is in the worktree. */
  leftBehind: string[];
  /** The repository has submodules; they are not checked out in a new worktree. */
  hasSubmodules: boolean;
}

/** Why a worktree could not be made, in words for the model (and the person reading along). */
class WorktreeError extends Error {
  readonly isWorktreeError = true;
  constructor(message: string) {
    super(message);
    this.name = 'WorktreeError';
  }

  static isInstance(error: unknown): error is WorktreeError {
    return hasErrorMark(error, 'isWorktreeError');
  }
}

export async function createWorktree(request: WorktreeRequest): Promise<AgentWorktree> {
  const idProblem = agentIdProblem(request.agentId);
  if (idProblem) throw new WorktreeError(idProblem);
  const baseRef = baseRefOf(request.base);
  const { repository, commit } = await repositoryAndRevision(request.cwd, baseRef);
  const baseCommit = commit ?? noCommit(baseRef);
  const path = worktreePathFor(repository.root, request.agentId);
  const branch = branchFor(request.agentId);
  if ((await lstat(path).catch(() => undefined)) !== undefined) {
    throw new WorktreeError(
      `${path} already exists. warren never reuses a worktree: remove it with \`warren worktrees remove ${request.agentId}\` first.`,
    );
  }
  await excludeWorktrees(repository.commonDir);
  const reason = runningReason(request.agentId);
  const [added, parent] = await Promise.allSettled([
    withWorktreeAdminLock(repository.root, () =>
      git(repository.toplevel, [
        ...NO_HOOKS,
        'worktree',
        'add',
        '--lock',
        '--reason',
        reason,
        '--no-track',
        '-b',
        branch,
        path,
        baseCommit,
      ]),
    ),
    // The parent's own changes are what the worktree will lack: the model is told which.
    checkoutStatus(request.cwd),
  ]);
  if (added.status === 'rejected') {
    // git refuses a branch name that is taken before it makes anything; any other failure may
    // come after it made the branch.
    const taken = GitError.isInstance(added.reason) && /already exists/.test(added.reason.detail);
    await takeBack({ repository, path, branch, baseCommit, mayHaveMade: !taken });
    throw added.reason;
  }
  try {
    const adminDir = await adminDirOf(repository.commonDir, path);
    if (adminDir === undefined) throw new WorktreeError(`git made ${path} but not its entry`);
    await writeMetadata(
      adminDir,
      newMetadata({
        agentId: request.agentId,
        parentId: request.parentId,
        agentType: request.agentType,
        description: request.description,
        baseRef,
        baseCommit,
      }),
    );
  } catch (error) {
    await takeBack({ repository, path, branch, baseCommit, mayHaveMade: true });
    throw error;
  }
  return {
    agentId: request.agentId,
    path,
    branch,
    repository,
    baseRef,
    baseCommit,
    leftBehind: parent.status === 'fulfilled' ? parent.value.changes : [],
    hasSubmodules: existsSync(join(path, '.gitmodules')),
  };
}

/** The lock's reason while an agent runs in its worktree, naming the process that runs it. */
export function runningReason(agentId: string): string {
  return `warren agent ${agentId} is running (pid ${process.pid})`;
}

/** `head` (any case) is the parent's HEAD; anything else must look like a ref, never an option. */
function baseRefOf(base: string | undefined): string {
  if (base === undefined || base.toLowerCase() === 'head') return 'HEAD';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (base.startsWith('-') || /[\s\x00-\x1f\x7f]/.test(base) || base.length > 200) {
    throw new WorktreeError(
      `worktreeBase "${base.slice(0, 80)}" is not a ref: give "head", a branch, a tag or a commit`,
    );
  }
  return base;
}

function noCommit(ref: string): never {
  if (ref === 'HEAD') {
    throw new WorktreeError(
      'the repository has no commits yet, so there is nothing to branch a worktree from. Commit first, or call Agent without isolation.',
    );
  }
  throw new WorktreeError(`worktreeBase "${ref}" names no commit in this repository`);
}

/**
 * Removes whatever a failed creation made: the worktree, its folder, and the branch if it still
 * points at the base. When git refused because the branch name was taken, it made nothing, and
 * that branch (someone else's) is left alone.
 */
async function takeBack(made: {
  repository: Repository;
  path: string;
  branch: string;
  baseCommit: string;
  mayHaveMade: boolean;
}): Promise<void> {
  if (!made.mayHaveMade) return;
  const { repository, path, branch } = made;
  await withWorktreeAdminLock(repository.root, () =>
    git(repository.root, ['worktree', 'remove', '--force', '--force', path]),
  ).catch(() => {});
  await rm(path, { recursive: true, force: true });
  const tip = await git(
    repository.root,
    ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`],
    { okCodes: [1] },
  ).catch(() => undefined);
  if (tip?.code === 0 && tip.stdout.trim() === made.baseCommit) {
    await git(repository.root, ['branch', '-D', branch]).catch(() => {});
  }
}
