// The Glob tool: files matching a glob pattern under a directory, most recently modified first.
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, toolError } from '../core/tool.js';
import { displayPath, resolveAllowedPath, resolveToolPath, statIfExists } from './allowed-path.js';
import { searchesUnderPath } from './file-tool-kinds.js';
import { skippedDirs, sortByMtimeNewestFirst, walkFiles } from './file-walk.js';

const MAX_RESULTS = 100;

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
    "- node_modules, .git and .warren/worktrees (sub-agents' worktrees) are skipped unless the pattern names them.",
    '- Use it to find files by name; to find files by content, use Grep. You can run several searches in parallel.',
  ].join('\n'),
  inputSchema,
  ...searchesUnderPath,
  async call(input, ctx) {
    const { base, pattern } = splitPattern(input.pattern, input.path ?? '.');
    const target = await resolveToolPath(base, ctx);
    if (!target.ok) return toolError(target.message);
    const { realCwd, shown: shownBase } = target;
    const baseStats = await statIfExists(target.path);
    if (baseStats === undefined) return toolError(`Directory does not exist: ${shownBase}.`);
    if (!baseStats.isDirectory()) {
      return toolError(`path must be a directory, but ${shownBase} is a file.`);
    }

    const matches = await walkFiles(pattern, {
      cwd: target.path,
      skip: skippedDirs(pattern),
      signal: ctx.signal,
    });
    // A pattern that names a symlinked directory (`link/*`) walks through it: keep only what
    // really lies inside the allowed directories.
    const real = await Promise.all(matches.map((file) => resolveAllowedPath(file, ctx)));
    const inside = matches.filter((_, index) => real[index]?.ok === true);
    const leftOut = leftOutNote(matches.length - inside.length);
    if (inside.length === 0) {
      const where = shownBase === '.' ? 'the working directory' : shownBase;
      return `No files found matching "${input.pattern}" in ${where}.${leftOut}`;
    }

    const newestFirst = await sortByMtimeNewestFirst(inside);
    const listed = newestFirst.slice(0, MAX_RESULTS).map((file) => displayPath(file, realCwd));
    if (newestFirst.length <= MAX_RESULTS)
      return listed.join('\n') + (leftOut && `\n\n${leftOut.trim()}`);
    return `${listed.join('\n')}\n\n(Showing the ${MAX_RESULTS} most recently modified of ${newestFirst.length} matching files. Use a more specific pattern or path to see the others.)${leftOut}`;
  },
});

function leftOutNote(count: number): string {
  if (count === 0) return '';
  const what = count === 1 ? '1 match was' : `${count} matches were`;
  return ` (${what} left out: ${count === 1 ? 'its' : 'their'} real location is outside the allowed directories.)`;
}

/** An absolute pattern brings its own base directory: "/repo/src/**\/*.ts" searches /repo/src. */
function splitPattern(pattern: string, basePath: string): { base: string; pattern: string } {
  if (!path.isAbsolute(pattern)) return { base: basePath, pattern };
  const scanned = picomatch.scan(pattern);
  if (scanned.glob === '') return { base: path.dirname(pattern), pattern: path.basename(pattern) };
  return { base: scanned.base, pattern: scanned.glob };
}
