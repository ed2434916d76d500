// The agent worktrees of a repository as `warren worktrees` shows them: each with its agent,
// branch, state (running, kept, orphaned), changes against its base, and whether the checkout
// asking has merged them. Also the `warren/*` branches whose worktree is gone.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { checkoutStatus } from './checkout-status.js';
import { findRepository, NotARepositoryError, type Repository } from './git-repository.js';
import { git } from './run-git.js';
import {
  adminDirOf,
  isOwnerAlive,
  readMetadata,
  type WorktreeMetadata,
} from './worktree-metadata.js';
import {
  agentIdOf,
  agentIdProblem,
  BRANCH_PREFIX,
  branchFor,
  WORKTREES_DIR,
  worktreePathFor,
} from './worktree-names.js';

/**
 * `running`: locked by an agent whose process is alive. `kept`: its agent ended and it stays for
 * review. `orphaned`: its run ended without finishing it (a crash left the lock), or its folder
 * or its worktree is gone while the branch remains.
 */
export type WorktreeState = 'running' | 'kept' | 'orphaned';

export interface ListedWorktree {
  agentId: string;
  path: string;
  branch: string;
  state: WorktreeState;
  /** Why it is orphaned, in words; null otherwise. */
  orphanedBecause: string | null;
  /** Its folder exists and git knows it as a worktree. */
  present: boolean;
  metadata: WorktreeMetadata | undefined;
  /** The commit it branched from (from its metadata, else where it meets the asking checkout). */
  baseCommit: string | null;
  /** The commit it is at (its branch tip when the folder is gone). */
  head: string | null;
  /** Paths with uncommitted changes in it. */
  uncommitted: string[];
  /** Commits of its own or uncommitted changes: something to review. */
  changed: boolean;
  /** Its commits are all in the asking checkout's HEAD: removing it loses nothing. */
  merged: boolean;
  /** `git diff --shortstat` against the base, e.g. "2 files changed, 3 insertions(+)". */
  shortStat: string;
  createdAt: Date | null;
}

export interface WorktreeListing {
  repository: Repository;
  worktrees: ListedWorktree[];
}

interface GitWorktreeEntry {
  path: string;
  head: string | null;
  branch: string | null;
  locked: boolean;
  prunable: boolean;
}

/** The repository `cwd` is in, as a ConfigError for people when it is none. */
async function repositoryFor(cwd: string, command: string): Promise<Repository> {
  try {
    return await findRepository(cwd);
  } catch (error) {
    if (NotARepositoryError.isInstance(error)) {
      throw new ConfigError(
        `warren worktrees ${command}`.trim(),
        error.message,
        'run it inside the repository whose agent worktrees you mean, or pass --cwd <dir>',
      );
    }
    throw error;
  }
}

export async function listWorktrees(cwd: string): Promise<WorktreeListing> {
  const repository = await repositoryFor(cwd, 'list');
  const dir = path.join(repository.root, WORKTREES_DIR);
  const entries = (await gitWorktrees(repository.root)).filter(
    (entry) =>
      path.dirname(entry.path) === dir && agentIdProblem(path.basename(entry.path)) === undefined,
  );
  const withWorktree = new Set(entries.map((entry) => path.basename(entry.path)));
  const listed = await Promise.all(entries.map((entry) => describeWorktree(repository, entry)));
  const { stdout } = await git(repository.root, [
    'for-each-ref',
    '--format=%(refname:short)',
    `refs/heads/${BRANCH_PREFIX}`,
  ]);
  const loneBranches = stdout
    .split('\n')
    .map((branch) => agentIdOf(branch.trim()))
    .filter((id) => id !== '' && agentIdProblem(id) === undefined && !withWorktree.has(id));
  listed.push(...(await Promise.all(loneBranches.map((id) => describeLoneBranch(repository, id)))));
  listed.sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0));
  return { repository, worktrees: listed };
}

/** The worktree of `idOrBranch`, as a ConfigError naming the command when there is none. */
export async function findWorktree(
  cwd: string,
  idOrBranch: string,
  command: string,
): Promise<{ repository: Repository; worktree: ListedWorktree }> {
  const agentId = agentIdOf(idOrBranch);
  const where = `warren worktrees ${command} ${idOrBranch}`;
  const problem = agentIdProblem(agentId);
  if (problem)
    throw new ConfigError(where, problem, 'give an agent id as `warren worktrees` lists it');
  const { repository, worktrees } = await listWorktrees(cwd);
  const worktree = worktrees.find((candidate) => candidate.agentId === agentId);
  if (!worktree) {
    const known = worktrees.map((candidate) => candidate.agentId).join(', ');
    throw new ConfigError(
      where,
      `no agent worktree or branch for ${agentId} in ${repository.root}`,
      known ? `use one of: ${known}` : 'there are none; `warren worktrees` lists them',
    );
  }
  return { repository, worktree };
}

async function gitWorktrees(root: string): Promise<GitWorktreeEntry[]> {
  const { stdout } = await git(root, ['worktree', 'list', '--porcelain']);
  return stdout
    .split(/\n\n+/)
    .filter((block) => block.startsWith('worktree '))
    .map((block) => {
      const lines = block.split('\n');
      const value = (key: string) =>
        lines.find((line) => line.startsWith(`${key} `))?.slice(key.length + 1);
      const branch = value('branch');
      return {
        path: value('worktree')!,
        head: value('HEAD') ?? null,
        branch: branch?.startsWith('refs/heads/') ? branch.slice('refs/heads/'.length) : null,
        locked: lines.some((line) => line === 'locked' || line.startsWith('locked ')),
        prunable: lines.some((line) => line === 'prunable' || line.startsWith('prunable ')),
      };
    });
}

async function describeWorktree(
  repository: Repository,
  entry: GitWorktreeEntry,
): Promise<ListedWorktree> {
  const agentId = path.basename(entry.path);
  const present = !entry.prunable && existsSync(entry.path);
  const metadata = await readMetadata(await adminDirOf(repository.commonDir, entry.path));
  const ownerAlive = metadata !== undefined ? isOwnerAlive(metadata) : true;
  let state: WorktreeState = 'kept';
  let orphanedBecause: string | null = null;
  if (!present) {
    state = 'orphaned';
    orphanedBecause = 'its folder is gone';
  } else if (entry.locked && ownerAlive) {
    state = 'running';
  } else if (entry.locked) {
    state = 'orphaned';
    orphanedBecause = `the run that made it (pid ${metadata?.pid}) ended without finishing it`;
  }
  const status = present ? await checkoutStatus(entry.path) : undefined;
  const head = status?.head ?? entry.head;
  const baseCommit = metadata?.baseCommit ?? (head ? await mergeBase(repository, head) : null);
  return {
    agentId,
    path: entry.path,
    branch: entry.branch ?? branchFor(agentId),
    state,
    orphanedBecause,
    present,
    metadata,
    baseCommit,
    head,
    uncommitted: status?.changes ?? [],
    changed: (status?.changes.length ?? 0) > 0 || (head !== null && head !== baseCommit),
    merged:
      (status?.changes.length ?? 0) === 0 && head !== null && (await isMerged(repository, head)),
    shortStat: baseCommit
      ? await shortStat(
          present ? entry.path : repository.root,
          baseCommit,
          present ? undefined : head,
        )
      : '',
    createdAt: metadata ? new Date(metadata.createdAt) : null,
  };
}

/** A `warren/<id>` branch with no worktree: what a removed folder plus `git worktree prune` leave. */
async function describeLoneBranch(
  repository: Repository,
  agentId: string,
): Promise<ListedWorktree> {
  const branch = branchFor(agentId);
  const head = (
    await git(repository.root, ['rev-parse', '--verify', `refs/heads/${branch}`])
  ).stdout.trim();
  const baseCommit = await mergeBase(repository, head);
  return {
    agentId,
    path: worktreePathFor(repository.root, agentId),
    branch,
    state: 'orphaned',
    orphanedBecause: 'its worktree is gone; only the branch is left',
    present: false,
    metadata: undefined,
    baseCommit,
    head,
    uncommitted: [],
    changed: head !== baseCommit,
    merged: await isMerged(repository, head),
    shortStat: baseCommit ? await shortStat(repository.root, baseCommit, head) : '',
    createdAt: null,
  };
}

/** Where `commit` meets the HEAD of the checkout asking. */
async function mergeBase(repository: Repository, commit: string): Promise<string | null> {
  const { stdout, code } = await git(repository.toplevel, ['merge-base', 'HEAD', commit], {
    okCodes: [1],
  });
  return code === 0 ? stdout.trim() : null;
}

async function isMerged(repository: Repository, commit: string): Promise<boolean> {
  const { code } = await git(repository.toplevel, ['merge-base', '--is-ancestor', commit, 'HEAD'], {
    okCodes: [1],
  });
  return code === 0;
}

/** In a worktree: its files against the base; without one: the branch tip against it. */
async function shortStat(
  dir: string,
  base: string,
  tip: string | null | undefined,
): Promise<string> {
  const args = ['diff', '--shortstat', base, ...(tip ? [tip] : [])];
  return (await git(dir, args)).stdout.trim();
}
