// Which git repository a directory belongs to: the checkout it is in, the main checkout (where
// agent worktrees live) and the git directory they share. Anything else is a clear "not a repo".
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { hasErrorMark } from '../core/error-mark.js';
import { GitError, git } from './run-git.js';

export interface Repository {
  /** The top of the checkout the directory is in: the main checkout or a linked worktree. */
  toplevel: string;
  /** The main checkout: `.warren/worktrees/` is made here, whichever checkout asks. */
  root: string;
  /** The git directory every worktree shares (`<root>/.git` in the usual layout). */
  commonDir: string;
}

/** A directory that is not inside a git work tree; `message` says so in words a model reads. */
export class NotARepositoryError extends Error {
  readonly isNotARepository = true;
  constructor(dir: string, why: string) {
    super(`${dir} is not inside a git work tree (${why})`);
    this.name = 'NotARepositoryError';
  }

  static isInstance(error: unknown): error is NotARepositoryError {
    return hasErrorMark(error, 'isNotARepository');
  }
}

/** The repository `dir` is in. Rejects with NotARepositoryError, or a GitError when git fails. */
export async function findRepository(dir: string): Promise<Repository> {
  return (await repositoryAndRevision(dir, undefined)).repository;
}

/**
 * The repository `dir` is in and the commit `revision` names there (null when it names none, or
 * the repository has no commits yet), asked of git in one call: worktree creation pays for git's
 * start-up once, not twice.
 */
export async function repositoryAndRevision(
  dir: string,
  revision: string | undefined,
): Promise<{ repository: Repository; commit: string | null }> {
  let output: { stdout: string; code: number };
  try {
    output = await git(
      dir,
      [
        'rev-parse',
        '--path-format=absolute',
        '--show-toplevel',
        '--git-common-dir',
        ...(revision === undefined
          ? []
          : ['--verify', '--quiet', '--end-of-options', `${revision}^{commit}`]),
      ],
      { okCodes: [1] },
    );
  } catch (error) {
    if (
      GitError.isInstance(error) &&
      /not a git repository|must be run in a work tree/.test(error.detail)
    ) {
      throw new NotARepositoryError(dir, error.detail.replace(/^fatal: /, ''));
    }
    throw error;
  }
  const lines = output.stdout.split('\n');
  const [toplevel, commonDir] = await Promise.all([realpath(lines[0]!), realpath(lines[1]!)]);
  const root =
    path.basename(commonDir) === '.git' ? path.dirname(commonDir) : await mainWorktreeOf(toplevel);
  const commit = output.code === 0 && revision !== undefined ? lines[2]!.trim() : null;
  return { repository: { toplevel, root, commonDir }, commit };
}

/** The first entry of `git worktree list` is the main checkout, wherever its git dir is kept. */
async function mainWorktreeOf(dir: string): Promise<string> {
  const { stdout } = await git(dir, ['worktree', 'list', '--porcelain']);
  const first = /^worktree (.+)$/m.exec(stdout)?.[1];
  if (first === undefined) throw new NotARepositoryError(dir, 'git lists no main worktree');
  return realpath(first);
}
