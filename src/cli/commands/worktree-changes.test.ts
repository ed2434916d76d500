import { describe, expect, it } from 'vitest';
import { changesOf } from './worktree-changes.js';

const base = {
  changed: true,
  shortStat: '',
  uncommitted: [] as string[],
  merged: false,
  state: 'kept' as const,
  head: 'b'.repeat(40),
  baseCommit: 'a'.repeat(40),
};

describe('the CHANGES of a worktree', () => {
  it('says "no commits" and "not committed yet" for a running agent that has committed nothing', () => {
    expect(
      changesOf({
        ...base,
        state: 'running',
        head: base.baseCommit,
        shortStat: '1 file changed, 2 insertions(+)',
        uncommitted: ['notes.txt', 'new.txt'],
      }),
    ).toBe('1 file, 2+, no commits, 2 files not committed yet');
  });

  it('never claims commits its branch does not have', () => {
    const onlyNewFiles = changesOf({ ...base, head: base.baseCommit, uncommitted: ['new.txt'] });
    expect(onlyNewFiles).toBe('no commits, 1 file left uncommitted');
    expect(onlyNewFiles).not.toMatch(/^commits/);
  });

  it('shows the diff stat of a kept worktree, merged or not', () => {
    expect(changesOf({ ...base, shortStat: '1 file changed, 1 insertion(+)' })).toBe('1 file, 1+');
    expect(changesOf({ ...base, merged: true })).toBe('commits, no file changes (merged)');
    expect(changesOf({ ...base, changed: false })).toBe('none');
  });
});
