// Takes an agent's worktree up again after a crash (`--resume`): checks that what its task
// recorded is still a worktree of this repository with warren's record, marks it as run by this
// process, and gives it back as `createWorktree` made it. Anything else is an error in words.
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type AgentWorktree, runningReason } from './create-worktree.js';
import { findRepository } from './git-repository.js';
import { git } from './run-git.js';
import { adminDirOf, readMetadata, writeMetadata } from './worktree-metadata.js';
import { agentIdProblem, branchFor, worktreePathFor } from './worktree-names.js';

/** Rejects with an Error whose message names the worktree and what the person can do. */
export async function reopenWorktree(request: {
  /** Where the agent's parent works now: the repository the worktree must belong to. */
  cwd: string;
  agentId: string;
  /** The worktree as the task recorded it. */
  path: string;
}): Promise<AgentWorktree> {
  const { agentId, path } = request;
  const idProblem = agentIdProblem(agentId);
  if (idProblem) throw new Error(idProblem);
  const lost = (why: string) =>
    new Error(
      `its git worktree, ${path}, ${why}, so it cannot go on there; what it committed is on branch ${branchFor(agentId)} if that remains (see warren worktrees); ask for the task again if it is still wanted`,
    );
  if (!existsSync(path)) throw lost('is gone');
  const repository = await findRepository(request.cwd).catch(() => undefined);
  if (repository === undefined || worktreePathFor(repository.root, agentId) !== path) {
    throw lost(`is not an agent worktree of the repository at ${request.cwd}`);
  }
  const own = await git(path, ['rev-parse', '--path-format=absolute', '--show-toplevel'])
    .then(({ stdout }) => realpath(stdout.trim()))
    .catch(() => undefined);
  const adminDir = await adminDirOf(repository.commonDir, path);
  const metadata = await readMetadata(adminDir);
  if (own !== path || adminDir === undefined || metadata?.agentId !== agentId) {
    throw lost("is no longer a valid git worktree with warren's record of the agent");
  }
  // This process runs it now: `warren worktrees` shows it running; its lock names this pid.
  await writeMetadata(adminDir, { ...metadata, pid: process.pid, hostname: hostname() });
  await git(repository.root, ['worktree', 'unlock', path]).catch(() => {});
  await git(repository.root, ['worktree', 'lock', '--reason', runningReason(agentId), path]);
  return {
    agentId,
    path,
    branch: branchFor(agentId),
    repository,
    baseRef: metadata.baseRef,
    baseCommit: metadata.baseCommit,
    // What the parent had uncommitted when it was made is not recorded; its prompt said so then.
    leftBehind: [],
    hasSubmodules: existsSync(join(path, '.gitmodules')),
  };
}
