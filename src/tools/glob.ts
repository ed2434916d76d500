// The Glob tool: files matching a glob pattern under a directory, most recently modified first.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool } from '../core/tool.js';
import {
  displayPath,
  errorCode,
  isInside,
  permissionPath,
  realDir,
  resolveAllowedPath,
} from './allowed-path.js';

const MAX_RESULTS = 100;
/** Skipped unless the pattern names them: they hold thousands of files nobody means to list. */
const NOISY_DIRS = ['node_modules', '.git'];

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'The glob pattern to match files against, relative to path, e.g. "**/*.ts" or "src/**/*.{js,jsx}". `**` crosses directories; `*` does not.',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'The directory to search in: absolute, or relative to the working directory. Defaults to the working directory. Omit it rather than passing "undefined" or "null".',
    ),
});

export const globTool = defineTool({
  name: 'Glob',
  description: [
    'Finds files by name with a glob pattern, in any size of codebase.',
    '',
    '- Supports patterns like "**/*.js" or "src/**/*.ts"; returns matching file paths, most recently modified first.',
    `- Returns at most ${MAX_RESULTS} paths, and says when there are more: narrow the pattern or path then.`,
    '- node_modules and .git are skipped unless the pattern names them.',
    '- Use it to find files by name; to find files by content, use Grep. You can run several searches in parallel.',
  ].join('\n'),
  inputSchema,
  isReadOnly: true,
  isConcurrencySafe: true,
  permissionSubject: (input, ctx) => permissionPath(input.path ?? '.', ctx.cwd),
  async call(input, ctx) {
    const { base, pattern } = splitPattern(input.pattern, input.path ?? '.');
    const resolved = await resolveAllowedPath(base, ctx);
    if (!resolved.ok) return { output: resolved.message, isError: true };
    const realCwd = await realDir(ctx.cwd);
    const shownBase = displayPath(resolved.path, realCwd);
    const baseStats = await stat(resolved.path).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (baseStats === undefined) {
      return { output: `Directory does not exist: ${shownBase}.`, isError: true };
    }
    if (!baseStats.isDirectory()) {
      return { output: `path must be a directory, but ${shownBase} is a file.`, isError: true };
    }

    const allowed = await Promise.all(ctx.allowedDirs.map((dir) => realDir(dir)));
    // Loaded on first use: a run that never globs does not pay for it at start-up.
    const { glob } = await import('tinyglobby');
    const matches = await glob(pattern, {
      cwd: resolved.path,
      absolute: true,
      dot: true,
      onlyFiles: true,
      // Listing through a symlinked directory could show names from outside the allowed dirs.
      followSymbolicLinks: false,
      ignore: NOISY_DIRS.filter((dir) => !pattern.split('/').includes(dir)).map(
        (dir) => `**/${dir}/**`,
      ),
      signal: ctx.signal,
    });
    const inside = matches.filter((file) => allowed.some((dir) => isInside(file, dir)));
    if (inside.length === 0) {
      const where = shownBase === '.' ? 'the working directory' : shownBase;
      return `No files found matching "${input.pattern}" in ${where}.`;
    }

    const newestFirst = await sortByMtimeNewestFirst(inside);
    const listed = newestFirst.slice(0, MAX_RESULTS).map((file) => displayPath(file, realCwd));
    if (newestFirst.length <= MAX_RESULTS) return listed.join('\n');
    return `${listed.join('\n')}\n\n(Showing the ${MAX_RESULTS} most recently modified of ${newestFirst.length} matching files. Use a more specific pattern or path to see the others.)`;
  },
});

/** An absolute pattern brings its own base directory: "/repo/src/**\/*.ts" searches /repo/src. */
function splitPattern(pattern: string, basePath: string): { base: string; pattern: string } {
  if (!path.isAbsolute(pattern)) return { base: basePath, pattern };
  const scanned = picomatch.scan(pattern);
  if (scanned.glob === '') return { base: path.dirname(pattern), pattern: path.basename(pattern) };
  return { base: scanned.base, pattern: scanned.glob };
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
