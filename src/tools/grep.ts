// The Grep tool: searches file contents with ripgrep when it is installed, else with a JavaScript
// engine that walks files the same way (.gitignore and .ignore honoured, hidden files searched).
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, lstat, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Ignore } from 'ignore';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, type PlainTool } from '../core/tool.js';
import {
  displayPath,
  errorCode,
  isInside,
  permissionPath,
  realDir,
  resolveAllowedPath,
} from './allowed-path.js';
import { sortByMtimeNewestFirst } from './glob.js';

const MAX_ENTRIES = 250;
const MAX_LINE_CHARS = 300;
/** The JavaScript engine skips larger files rather than hold them in memory. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;
/** Skipped unless the search path is inside them or the glob names them. */
const NOISY_DIRS = ['.git', 'node_modules'];
const IGNORE_FILES = ['.gitignore', '.ignore'];

export type GrepMode = 'content' | 'files_with_matches' | 'count';
export type GrepEngineName = 'auto' | 'ripgrep' | 'javascript';

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'The regular expression to search file contents for, e.g. "log.*Error" or "function\\s+\\w+". Escape regex characters to search for them literally (e.g. "interface\\{\\}").',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'The file or directory to search: absolute, or relative to the working directory. Defaults to the working directory.',
    ),
  glob: z
    .string()
    .optional()
    .describe(
      'Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}" (matched against file names), or "src/**/*.ts" (matched against paths under the search directory).',
    ),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"files_with_matches" (default) lists the files that match, most recently modified first; "content" shows matching lines as path:line:text; "count" shows path:number of matching lines.',
    ),
  case_insensitive: z
    .boolean()
    .optional()
    .describe('Match regardless of letter case (default false).'),
});

/** Builds the Grep tool; tests pin the engine, everything else uses `grepTool` (`auto`). */
export function makeGrepTool(engine: GrepEngineName): PlainTool {
  return defineTool({
    name: 'Grep',
    description: [
      'Searches file contents with a regular expression (ripgrep syntax). Use it for every content search instead of grep or rg through Bash.',
      '',
      '- Narrow the search with path (a directory or one file) and glob (e.g. "*.ts", "**/*.{ts,tsx}").',
      '- output_mode: "files_with_matches" (default) lists matching files, "content" shows matching lines with line numbers, "count" shows how many lines match per file.',
      '- Files ignored by .gitignore or .ignore, and node_modules and .git, are skipped; hidden files are searched.',
      '- Patterns match within a line. Look-around and backreferences are not supported. Literal braces need escaping: "interface\\{\\}" finds "interface{}".',
      `- At most ${MAX_ENTRIES} results are shown, with a note when there are more; narrow the search then.`,
    ].join('\n'),
    inputSchema,
    isReadOnly: true,
    isConcurrencySafe: true,
    permissionSubject: (input, ctx) => permissionPath(input.path ?? '.', ctx.cwd),
    async call(input, ctx) {
      const resolved = await resolveAllowedPath(input.path ?? '.', ctx);
      if (!resolved.ok) return { output: resolved.message, isError: true };
      const realCwd = await realDir(ctx.cwd);
      const shownRoot = displayPath(resolved.path, realCwd);
      const rootStats = await stat(resolved.path).catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (rootStats === undefined)
        return { output: `Path does not exist: ${shownRoot}.`, isError: true };

      const mode = input.output_mode ?? 'files_with_matches';
      const query: GrepQuery = {
        pattern: input.pattern,
        caseInsensitive: input.case_insensitive === true,
        root: resolved.path,
        rootIsFile: !rootStats.isDirectory(),
        glob: input.glob,
        mode,
        excludedDirs: NOISY_DIRS.filter((dir) => !(input.glob ?? '').split('/').includes(dir)),
        limit: MAX_ENTRIES,
        signal: ctx.signal,
      };
      const useRipgrep = engine === 'ripgrep' || (engine === 'auto' && (await ripgrepAvailable()));
      const result = useRipgrep
        ? await searchWithRipgrep(query)
        : await searchWithJavaScript(query);
      if ('error' in result) return { output: result.error, isError: true };
      return formatHits(result, { pattern: input.pattern, shownRoot, realCwd });
    },
  });
}

export const grepTool = makeGrepTool('auto');

interface GrepQuery {
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

interface ContentLine {
  file: string;
  line: number;
  text: string;
}

/** What an engine found, as absolute paths. Content lines come in path order, at most limit + 1. */
type GrepHits =
  | { mode: 'files_with_matches'; files: string[] }
  | { mode: 'count'; counts: { file: string; count: number }[] }
  | { mode: 'content'; lines: ContentLine[] };

type EngineResult = GrepHits | { error: string };

interface FormatContext {
  pattern: string;
  shownRoot: string;
  realCwd: string;
}

async function formatHits(hits: GrepHits, context: FormatContext): Promise<string> {
  const shown = (file: string) => displayPath(file, context.realCwd);
  const entries = await formatEntries(hits, shown);
  if (entries.length === 0) {
    const where = context.shownRoot === '.' ? 'the working directory' : context.shownRoot;
    return `No matches for /${context.pattern}/ in ${where}.`;
  }
  const listed = entries.slice(0, MAX_ENTRIES).join('\n');
  if (entries.length <= MAX_ENTRIES) return listed;
  const what =
    hits.mode === 'content'
      ? `the first ${MAX_ENTRIES} matching lines`
      : `${MAX_ENTRIES} of ${entries.length} files${hits.mode === 'files_with_matches' ? ', most recently modified first' : ''}`;
  return `${listed}\n\n(Showing ${what}. Narrow the pattern, path or glob to see the rest.)`;
}

async function formatEntries(hits: GrepHits, shown: (file: string) => string): Promise<string[]> {
  switch (hits.mode) {
    case 'files_with_matches':
      return (await sortByMtimeNewestFirst(hits.files)).map(shown);
    case 'count':
      return hits.counts
        .sort((a, b) => comparePaths(a.file, b.file))
        .map(({ file, count }) => `${shown(file)}:${count}`);
    case 'content':
      return hits.lines.map(({ file, line, text }) => `${shown(file)}:${line}:${clipLine(text)}`);
  }
}

function clipLine(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [line truncated]` : text;
}

/**
 * The order of a depth-first walk visiting directory entries sorted by name (ripgrep's
 * `--sort path`): compares segment by segment, so "a/b" sorts before "a.txt".
 */
function comparePaths(a: string, b: string): number {
  const left = a.split(path.sep);
  const right = b.split(path.sep);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index] ?? '';
    const y = right[index] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

// --- ripgrep --------------------------------------------------------------------------------

let ripgrepLookup: Promise<boolean> | undefined;

/** Whether an executable `rg` is on PATH; looked up once per process. */
export function ripgrepAvailable(): Promise<boolean> {
  ripgrepLookup ??= (async () => {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      const found = await access(path.join(dir, 'rg'), constants.X_OK).then(
        () => true,
        () => false,
      );
      if (found) return true;
    }
    return false;
  })();
  return ripgrepLookup;
}

async function searchWithRipgrep(query: GrepQuery): Promise<EngineResult> {
  const args = ['--no-config', '--hidden', '--with-filename', '--no-messages'];
  for (const dir of query.excludedDirs) args.push('--glob', `!${dir}`);
  if (query.glob !== undefined) args.push('--glob', query.glob);
  if (query.caseInsensitive) args.push('--ignore-case');
  if (query.mode === 'files_with_matches') args.push('--files-with-matches', '--null');
  if (query.mode === 'count') args.push('--count', '--null');
  if (query.mode === 'content') args.push('--json', '--sort', 'path');
  // ripgrep anchors globs such as "src/**" at its working directory, so it runs in the root.
  const cwd = query.rootIsFile ? path.dirname(query.root) : query.root;
  args.push('--regexp', query.pattern, '--', query.rootIsFile ? query.root : '.');
  const absolute = (file: string) => path.resolve(cwd, file);

  const child = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal: query.signal });
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) =>
      errorCode(error) === 'ABORT_ERR' ? resolve(null) : reject(error),
    );
    child.on('close', (code) => resolve(code));
  });

  const output: string[] = [];
  const lines: ContentLine[] = [];
  if (query.mode === 'content') {
    for await (const jsonLine of createInterface({ input: child.stdout })) {
      const match = parseRipgrepMatch(jsonLine);
      if (match === undefined) continue;
      lines.push({ ...match, file: absolute(match.file) });
      if (lines.length > query.limit) {
        child.kill();
        break;
      }
    }
  } else {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
  }
  const code = await exited;
  // Exit 1 means no match; 2 means an error, which only matters when nothing was found at all.
  const text = output.join('');
  if (code === 2 && text === '' && lines.length === 0) {
    return { error: `Grep failed: ${stderr.join('').trim() || 'ripgrep exited with status 2'}` };
  }
  query.signal.throwIfAborted();

  if (query.mode === 'content') return { mode: 'content', lines };
  const records = text
    .split(query.mode === 'count' ? '\n' : '\0')
    .filter((record) => record !== '');
  if (query.mode === 'files_with_matches') {
    return { mode: 'files_with_matches', files: records.map(absolute) };
  }
  const counts = records.map((record) => {
    const [file = '', count = '0'] = record.split('\0');
    return { file: absolute(file), count: Number(count) };
  });
  return { mode: 'count', counts };
}

function parseRipgrepMatch(jsonLine: string): ContentLine | undefined {
  const message = JSON.parse(jsonLine) as {
    type: string;
    data: { path?: RipgrepText; lines?: RipgrepText; line_number?: number };
  };
  if (message.type !== 'match') return undefined;
  return {
    file: ripgrepText(message.data.path),
    line: message.data.line_number ?? 0,
    text: ripgrepText(message.data.lines).replace(/\r?\n$/, ''),
  };
}

/** ripgrep sends text that is not valid UTF-8 as base64 `bytes`. */
type RipgrepText = { text: string } | { bytes: string };

function ripgrepText(value: RipgrepText | undefined): string {
  if (value === undefined) return '';
  return 'text' in value ? value.text : Buffer.from(value.bytes, 'base64').toString('utf8');
}

// --- JavaScript engine ----------------------------------------------------------------------

async function searchWithJavaScript(query: GrepQuery): Promise<EngineResult> {
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
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes === undefined || bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** The files under the root that ripgrep would search: walk, then apply ignore files and glob. */
async function searchableFiles(query: GrepQuery): Promise<string[]> {
  // Loaded on first use: a run that never searches does not pay for it at start-up.
  const { glob } = await import('tinyglobby');
  const all = await glob('**', {
    cwd: query.root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: query.excludedDirs.map((dir) => `**/${dir}/**`),
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
    const content = await readFile(file, 'utf8').catch(() => undefined);
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
