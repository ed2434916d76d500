// The Grep tool's search, loaded on its first call: ripgrep when it is installed
// (grep-ripgrep.ts), else a JavaScript engine that walks files the same way (grep-javascript.ts),
// and how the hits read to the model.
import { type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { displayPath, resolveToolPath, statIfExists } from './allowed-path.js';
import { skippedDirs, sortByMtimeNewestFirst } from './file-walk.js';
import { type GrepEngineName, type GrepInput, MAX_ENTRIES } from './grep.js';
import { comparePaths, type GrepHits, type GrepQuery } from './grep-engine.js';
import { searchWithRipgrepGuarded } from './grep-fifo-guard.js';
import { searchWithJavaScript } from './grep-javascript.js';
import { ripgrepAvailable } from './grep-ripgrep.js';

const MAX_LINE_CHARS = 300;

export async function searchFiles(
  input: GrepInput,
  ctx: ToolContext,
  engine: GrepEngineName,
): Promise<ToolOutput> {
  const target = await resolveToolPath(input.path ?? '.', ctx);
  if (!target.ok) return toolError(target.message);
  const { realCwd, shown: shownRoot } = target;
  const rootStats = await statIfExists(target.path);
  if (rootStats === undefined) return toolError(`Path does not exist: ${shownRoot}.`);

  const mode = input.output_mode ?? 'files_with_matches';
  const query: GrepQuery = {
    pattern: input.pattern,
    caseInsensitive: input.case_insensitive === true,
    root: target.path,
    rootIsFile: !rootStats.isDirectory(),
    glob: input.glob,
    mode,
    excludedDirs: skippedDirs(input.glob),
    limit: MAX_ENTRIES,
    signal: ctx.signal,
  };
  const useRipgrep = engine === 'ripgrep' || (engine === 'auto' && (await ripgrepAvailable()));
  const result = useRipgrep
    ? await searchWithRipgrepGuarded(query)
    : await searchWithJavaScript(query);
  if ('error' in result) return toolError(result.error);
  return formatHits(result, { pattern: input.pattern, shownRoot, realCwd });
}

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
