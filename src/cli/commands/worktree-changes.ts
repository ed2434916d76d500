// The CHANGES cell of `warren worktrees`: what is in a worktree against its base, in words that
// hold for the case at hand: a diff stat, commits only when its branch has some, and files not
// committed (yet, while its agent runs; left so, when its run ended before warren could commit).
import type { ListedWorktree } from '../../isolation/list-worktrees.js';

export function changesOf(
  worktree: Pick<
    ListedWorktree,
    'changed' | 'shortStat' | 'uncommitted' | 'merged' | 'state' | 'head' | 'baseCommit'
  >,
): string {
  if (!worktree.changed) return 'none';
  const stat = worktree.shortStat
    .replace(/ files? changed/, (match) => (match.includes('files') ? ' files' : ' file'))
    .replace(/ insertions?\(\+\)/, '+')
    .replace(/ deletions?\(-\)/, '-');
  const committed = worktree.head !== null && worktree.head !== worktree.baseCommit;
  const count = worktree.uncommitted.length;
  const files = `${count} file${count === 1 ? '' : 's'}`;
  const loose =
    count === 0
      ? ''
      : worktree.state === 'running'
        ? `${files} not committed yet`
        : `${files} left uncommitted`;
  const parts = [
    stat || (committed ? 'commits, no file changes' : ''),
    committed || count === 0 ? '' : 'no commits',
    loose,
  ].filter((part) => part !== '');
  return `${parts.join(', ')}${worktree.merged ? ' (merged)' : ''}`;
}
