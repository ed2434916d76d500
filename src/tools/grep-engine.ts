// What a Grep engine is asked and what it answers, shared by the tool and its two engines
// (grep-ripgrep.ts, grep-javascript.ts), which must find the same things in the same order.
import path from 'node:path';

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepQuery {
  pattern: string;
  caseInsensitive: boolean;
  /** Real absolute path of the file or directory to search. */
  root: string;
  rootIsFile: boolean;
  glob: string | undefined;
  mode: GrepMode;
  excludedDirs: readonly string[];
  /** Content mode stops after this many lines (plus one, to know there are more). */
  limit: number;
  signal: AbortSignal;
}

export interface ContentLine {
  file: string;
  line: number;
  text: string;
}

/** What an engine found, as absolute paths. Content lines come in path order, at most limit + 1. */
export type GrepHits =
  | { mode: 'files_with_matches'; files: string[] }
  | { mode: 'count'; counts: { file: string; count: number }[] }
  | { mode: 'content'; lines: ContentLine[] };

export type EngineResult = GrepHits | { error: string };

/**
 * The order of a depth-first walk visiting directory entries sorted by name (ripgrep's
 * `--sort path`): compares segment by segment, so "a/b" sorts before "a.txt".
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split(path.sep);
  const right = b.split(path.sep);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index] ?? '';
    const y = right[index] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
