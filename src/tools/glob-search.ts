// The Glob tool's search, loaded on its first call: the pattern's base directory, the walk, what
// really lies inside the allowed directories, newest first.
import path from 'node:path';
import picomatch from 'picomatch';
import { type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { displayPath, resolveAllowedPath, resolveToolPath, statIfExists } from './allowed-path.js';
import { skippedDirs, sortByMtimeNewestFirst, walkFiles } from './file-walk.js';
import { type GlobInput, MAX_RESULTS } from './glob.js';

export async function findFiles(input: GlobInput, ctx: ToolContext): Promise<ToolOutput> {
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
}

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
