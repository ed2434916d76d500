// One `git status` of a checkout, read into what warren needs: the commit and branch it is on,
// and the paths with changes (modified, staged, untracked, conflicted). Ignored files never count.
import { git } from './run-git.js';

export interface CheckoutStatus {
  /** The commit HEAD is at; null before the first commit. */
  head: string | null;
  /** The branch HEAD is on; null when HEAD is detached. */
  branch: string | null;
  /** Paths with uncommitted changes as git names them; an untracked folder is one entry, `dir/`. */
  changes: string[];
  /** The paths among them with unresolved merge conflicts. */
  conflicts: string[];
}

/**
 * Reads without taking the index lock (`--no-optional-locks`): the user's own git commands and
 * other agents' worktrees are never held up, nor made to fail, by this look.
 */
export async function checkoutStatus(dir: string): Promise<CheckoutStatus> {
  const { stdout } = await git(dir, [
    '--no-optional-locks',
    'status',
    '--porcelain=v2',
    '--branch',
    '-z',
    '--untracked-files=normal',
  ]);
  return parseStatus(stdout);
}

/** Reads `git status --porcelain=v2 --branch -z` output. */
function parseStatus(output: string): CheckoutStatus {
  const status: CheckoutStatus = { head: null, branch: null, changes: [], conflicts: [] };
  const records = output.split('\0');
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    if (record === '') continue;
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length);
      status.head = oid === '(initial)' ? null : oid;
    } else if (record.startsWith('# branch.head ')) {
      const name = record.slice('# branch.head '.length);
      status.branch = name === '(detached)' ? null : name;
    } else if (record.startsWith('1 ')) {
      status.changes.push(fieldsFrom(record, 8));
    } else if (record.startsWith('2 ')) {
      status.changes.push(fieldsFrom(record, 9));
      index++; // the path it was renamed or copied from
    } else if (record.startsWith('u ')) {
      status.changes.push(fieldsFrom(record, 10));
      status.conflicts.push(fieldsFrom(record, 10));
    } else if (record.startsWith('? ')) {
      status.changes.push(record.slice(2));
    }
  }
  return status;
}

/** The rest of a space-separated record from field `count` on: a path may contain spaces. */
function fieldsFrom(record: string, count: number): string {
  let at = 0;
  for (let field = 0; field < count; field++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}
