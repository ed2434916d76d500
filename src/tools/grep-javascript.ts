// The Grep engine for machines without ripgrep: walks the files ripgrep would search
// (.gitignore and .ignore honoured, hidden files searched) and matches lines with RegExp.
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Ignore } from 'ignore';
import picomatch from 'picomatch';
import { readRegularFile, readRegularText } from '../core/regular-file.js';
import { isInside } from './allowed-path.js';
import { walkFiles } from './file-walk.js';
import {
  type ContentLine,
  comparePaths,
  type EngineResult,
  type GrepQuery,
} from './grep-engine.js';
import { looksBinary, MAX_FILE_BYTES } from './text-file.js';

const IGNORE_FILES = ['.gitignore', '.ignore'];

export async function searchWithJavaScript(query: GrepQuery): Promise<EngineResult> {
  let regex: RegExp;
  try {
    regex = new RegExp(query.pattern, query.caseInsensitive ? 'i' : '');
  } catch (error) {
    return { error: `Invalid regular expression: ${(error as Error).message}` };
  }
  const files = query.rootIsFile ? [query.root] : await searchableFiles(query);
  files.sort(comparePaths);

  const matchedFiles: string[] = [];
  const counts: { file: string; count: number }[] = [];
  const lines: ContentLine[] = [];
  for (const file of files) {
    query.signal.throwIfAborted();
    const text = await readSearchableText(file);
    if (text === undefined) continue;
    let count = 0;
    for (const [index, line] of text.split(/\r?\n/).entries()) {
      if (!regex.test(line)) continue;
      count++;
      if (query.mode !== 'content') continue;
      lines.push({ file, line: index + 1, text: line });
      if (lines.length > query.limit) return { mode: 'content', lines };
    }
    if (count === 0) continue;
    matchedFiles.push(file);
    counts.push({ file, count });
  }
  if (query.mode === 'files_with_matches') {
    return { mode: 'files_with_matches', files: matchedFiles };
  }
  if (query.mode === 'count') return { mode: 'count', counts };
  return { mode: 'content', lines };
}

/** Text of a regular file worth searching: not a symlink, not binary, not huge. */
async function readSearchableText(file: string): Promise<string | undefined> {
  const stats = await lstat(file).catch(() => undefined);
  if (stats === undefined || !stats.isFile() || stats.size > MAX_FILE_BYTES) return undefined;
  const bytes = await readRegularFile(file, { maxBytes: MAX_FILE_BYTES }).catch(() => undefined);
  if (bytes === undefined || looksBinary(bytes)) return undefined;
  const text = bytes.toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** The files under the root that ripgrep would search: walk, then apply ignore files and glob. */
async function searchableFiles(query: GrepQuery): Promise<string[]> {
  const all = await walkFiles('**', {
    cwd: query.root,
    skip: query.excludedDirs,
    signal: query.signal,
  });
  const sources = await ignoreSources(query.root, all);
  const wanted = globFilter(query.glob, query.root);
  return all.filter(
    (file) =>
      wanted(file) &&
      !sources.some(
        (source) =>
          isInside(file, source.dir) && source.rules.ignores(path.relative(source.dir, file)),
      ),
  );
}

interface IgnoreSource {
  dir: string;
  rules: Ignore;
}

/**
 * Ignore files that apply under the root: those found inside it, and, as ripgrep does, the
 * .gitignore files of its ancestors up to the git repository's top. .gitignore only counts inside
 * a repository. Rules that would ignore the root itself are dropped: an explicit path is searched.
 */
async function ignoreSources(root: string, files: readonly string[]): Promise<IgnoreSource[]> {
  const repoTop = await gitRepositoryTop(root);
  const inside = files
    .filter((file) => IGNORE_FILES.includes(path.basename(file)))
    .filter((file) => repoTop !== undefined || path.basename(file) !== '.gitignore');
  const above: string[] = [];
  if (repoTop !== undefined) {
    for (let dir = root; dir !== repoTop; ) {
      dir = path.dirname(dir);
      above.push(path.join(dir, '.gitignore'));
    }
  }
  const sources: IgnoreSource[] = [];
  const { default: ignore } = await import('ignore');
  for (const file of [...above, ...inside]) {
    // A cloned repository's .gitignore may be a FIFO: refused, not waited on.
    const content = await readRegularText(file, { maxBytes: MAX_FILE_BYTES }).catch(
      () => undefined,
    );
    if (content === undefined) continue;
    const source = { dir: path.dirname(file), rules: ignore().add(content) };
    const aboveRoot = source.dir !== root && isInside(root, source.dir);
    if (aboveRoot && source.rules.ignores(`${path.relative(source.dir, root)}/`)) continue;
    sources.push(source);
  }
  return sources;
}

/** The nearest directory at or above `dir` holding `.git` (a directory, or a worktree's file). */
async function gitRepositoryTop(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = path.dirname(current)) {
    const found = await stat(path.join(current, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** ripgrep's --glob: a pattern without "/" matches file names, one with "/" paths under the root. */
function globFilter(pattern: string | undefined, root: string): (file: string) => boolean {
  if (pattern === undefined) return () => true;
  const byName = !pattern.includes('/');
  const matches = picomatch(pattern, { dot: true, basename: byName });
  return (file) => matches(byName ? path.basename(file) : path.relative(root, file));
}
