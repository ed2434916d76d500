// The Glob tool as the model sees it: files matching a glob pattern under a directory, most
// recently modified first. The walk (glob-search.ts) loads with the first call.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool } from '../core/tool.js';
import { searchesUnderPath } from './file-tool-kinds.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';

/** Paths shown at most (glob-search.ts cuts there). */
export const MAX_RESULTS = 100;

export type GlobInput = z.output<ReturnType<typeof globInputSchema>>;

export const globInputSchema = lazy(() =>
  z.object({
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
  }),
);

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
  get inputSchema() {
    return globInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.Glob,
  ...searchesUnderPath,
  // The walk loads with the first search (glob-search.ts).
  call: async (input, ctx) => (await import('./glob-search.js')).findFiles(input, ctx),
});
