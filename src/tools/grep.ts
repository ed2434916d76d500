// The Grep tool: searches file contents with ripgrep when it is installed (grep-ripgrep.ts), else
// with a JavaScript engine that walks files the same way (grep-javascript.ts); this file owns the
// tool's input, the choice of engine, and how the hits read to the model.
import { z } from 'zod';
import { defineTool, type PlainTool, toolError } from '../core/tool.js';
import { displayPath, resolveToolPath, statIfExists } from './allowed-path.js';
import { searchesUnderPath } from './file-tool-kinds.js';
import { skippedDirs, sortByMtimeNewestFirst } from './file-walk.js';
import { comparePaths, type GrepHits, type GrepQuery } from './grep-engine.js';
import { searchWithRipgrepGuarded } from './grep-fifo-guard.js';
import { searchWithJavaScript } from './grep-javascript.js';
import { ripgrepAvailable } from './grep-ripgrep.js';

const MAX_ENTRIES = 250;
const MAX_LINE_CHARS = 300;

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
      '- Files ignored by .gitignore or .ignore, and node_modules, .git and .warren/worktrees, are skipped; hidden files are searched.',
      '- Patterns match within a line. Look-around and backreferences are not supported. Literal braces need escaping: "interface\\{\\}" finds "interface{}".',
      `- At most ${MAX_ENTRIES} results are shown, with a note when there are more; narrow the search then.`,
    ].join('\n'),
    inputSchema,
    ...searchesUnderPath,
    async call(input, ctx) {
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
    },
  });
}

export const grepTool = makeGrepTool('auto');

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
