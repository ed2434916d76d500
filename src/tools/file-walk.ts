// How Glob and Grep walk a directory: hidden files included, symlinked directories not followed,
// node_modules, .git and agent worktrees skipped unless the pattern names them; and their
// newest-first order.
import { stat } from 'node:fs/promises';

/**
 * Skipped unless the pattern names them: they hold thousands of files nobody means to search.
 * `.warren/worktrees` holds sub-agents' checkouts of the same repository: a search of the main
 * checkout that listed them would show every file again, under another path.
 */
const NOISY_DIRS = ['node_modules', '.git', '.warren/worktrees'];

/** The noisy directories a walk for `pattern` skips: those it does not name as path segments. */
export function skippedDirs(pattern: string | undefined): string[] {
  const segments = (pattern ?? '').split('/');
  return NOISY_DIRS.filter((dir) => {
    const parts = dir.split('/');
    return !segments.some((_, at) => parts.every((part, offset) => segments[at + offset] === part));
  });
}

export interface WalkOptions {
  /** The directory to walk; `pattern` is relative to it. */
  cwd: string;
  /** Directory names left out wherever they occur. */
  skip: readonly string[];
  signal: AbortSignal;
}

/** Absolute paths of the files under `options.cwd` that match the glob `pattern`. */
export async function walkFiles(pattern: string, options: WalkOptions): Promise<string[]> {
  // Loaded on first use: a run that never globs or greps does not pay for it at start-up.
  const { glob } = await import('tinyglobby');
  return glob(pattern, {
    cwd: options.cwd,
    absolute: true,
    dot: true,
    onlyFiles: true,
    // Walking through a symlinked directory could reach names outside the allowed dirs.
    followSymbolicLinks: false,
    ignore: options.skip.map((dir) => `**/${dir}/**`),
    signal: options.signal,
  });
}

/** Newest first, ties by path so the order is stable; files that vanished meanwhile are dropped. */
export async function sortByMtimeNewestFirst(files: readonly string[]): Promise<string[]> {
  const dated = await Promise.all(
    files.map(async (file) => ({
      file,
      mtimeMs: await stat(file).then(
        (stats) => stats.mtimeMs,
        () => undefined,
      ),
    })),
  );
  return dated
    .filter((entry): entry is { file: string; mtimeMs: number } => entry.mtimeMs !== undefined)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((entry) => entry.file);
}
