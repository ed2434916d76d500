// The Grep tool as the model sees it: its input and description. The search itself
// (grep-search.ts: ripgrep when installed, else a JavaScript engine) loads on its first call.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type PlainTool } from '../core/tool.js';
import { searchesUnderPath } from './file-tool-kinds.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';

/** Results shown at most (grep-search.ts cuts there). */
export const MAX_ENTRIES = 250;

export type GrepEngineName = 'auto' | 'ripgrep' | 'javascript';

export type GrepInput = z.output<ReturnType<typeof grepInputSchema>>;

export const grepInputSchema = lazy(() =>
  z.object({
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
  }),
);

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
    get inputSchema() {
      return grepInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.Grep,
    ...searchesUnderPath,
    // The engines and the hits' formatting load with the first search (grep-search.ts).
    call: async (input, ctx) => (await import('./grep-search.js')).searchFiles(input, ctx, engine),
  });
}

export const grepTool = makeGrepTool('auto');
