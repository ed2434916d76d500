// One `git worktree add/remove/prune` at a time per repository in this process: git reads every
// entry of `.git/worktrees/` while it adds one, and an entry half-made by a concurrent add fails
// it ("failed to read .git/worktrees/<id>/commondir"). Parallel children wait their turn here.

const tails = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier one for the repository whose main checkout is at `root`. */
export function withWorktreeAdminLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(root) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => {});
  tails.set(root, tail);
  // Forget the repository once nothing waits, so the map does not grow with every temp repo.
  void tail.then(() => {
    if (tails.get(root) === tail) tails.delete(root);
  });
  return run;
}
