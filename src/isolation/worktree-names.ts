// Where an agent's worktree lives and what its branch is called, derived from the agent id. An
// id can come from outside (a CLI argument, a restarted task), so it is checked before it ever
// becomes part of a path or a ref.
import path from 'node:path';

/** Under the main checkout; listed in `.git/info/exclude` so the checkout's status stays clean. */
export const WORKTREES_DIR = path.join('.warren', 'worktrees');

/** Every agent branch starts with this, so `warren worktrees` can find the branches it made. */
export const BRANCH_PREFIX = 'warren/';

/** Letters, digits, `_` and `-`: safe as a file name and as a ref component on every platform. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Why `id` cannot name a worktree, or undefined when it can. */
export function agentIdProblem(id: string): string | undefined {
  if (AGENT_ID.test(id)) return undefined;
  return `"${id.length > 80 ? `${id.slice(0, 80)}…` : id}" is not an agent id (letters, digits, _ and -, at most 64, starting with a letter or digit)`;
}

/** `warren/agent_1234` for a branch name given instead of an id, else the id as given. */
export function agentIdOf(idOrBranch: string): string {
  return idOrBranch.startsWith(BRANCH_PREFIX) ? idOrBranch.slice(BRANCH_PREFIX.length) : idOrBranch;
}

export function worktreePathFor(root: string, agentId: string): string {
  return path.join(root, WORKTREES_DIR, agentId);
}

export function branchFor(agentId: string): string {
  return `${BRANCH_PREFIX}${agentId}`;
}
