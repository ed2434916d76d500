// warren through its public library API: query() with the real openai-compatible provider, a
// `lookup` tool, and a `child` definition the parent starts with the built-in Agent tool.
// Needs the build (`npm run build`): it imports dist/, as a user of the package would.
import { z } from 'zod';
import { defineTool, query, resolveModel } from '../../dist/index.js';
import {
  CHILD_AGENT_DESCRIPTION,
  CHILD_AGENT_TYPE,
  CHILD_INSTRUCTIONS,
  DELEGATOR_INSTRUCTIONS,
  EXPLORATION_PROMPT,
  LOOKUP_RESULT,
  LOOKUP_TOOL_DESCRIPTION,
  LOOKUP_TOOL_NAME,
  PARENT_INSTRUCTIONS,
  PARENT_PROMPT,
  READER_INSTRUCTIONS,
} from '../lib/workload.mjs';

// Read by the driver without importing the file: keep it a plain object literal.
// In the JSON scenarios warren runs with `stream: false`, so replies come whole, as for the baseline.
export const meta = {
  name: 'warren',
  label: 'warren query()',
  packages: ['@ai-sdk/openai-compatible', '@ai-sdk/provider-utils', 'zod'],
  alwaysStreams: false,
  explores: true,
};

/** The `lookup` tool of the workload (the terminal-UI scenario gives it to its agents too). */
export const lookupTool = defineTool({
  name: LOOKUP_TOOL_NAME,
  description: LOOKUP_TOOL_DESCRIPTION,
  inputSchema: z.object({ key: z.string().describe('The key to look up.') }),
  isReadOnly: true,
  isConcurrencySafe: true,
  call: async () => LOOKUP_RESULT,
});

// One provider client per process, as an application would hold it.
const models = new Map();
function modelFor(baseURL) {
  let model = models.get(baseURL);
  if (!model) {
    model = resolveModel('openai-compatible:mock-model', { baseUrl: baseURL });
    models.set(baseURL, model);
  }
  return model;
}

/** Runs a query to the end and returns the main agent's final text; a failed run throws. */
async function finalText(params) {
  let result;
  for await (const event of query(params)) {
    if (event.type === 'result' && event.depth === 0) result = event;
  }
  if (!result) throw new Error('query() ended without a result for the main agent');
  if (result.isError) throw new Error(`the run ended ${result.status}: ${result.error}`);
  return result.result;
}

/** The fan-out job. No parent turn limit: a child's turns are capped by its parent's turns left. */
export default async function run(ctx) {
  return finalText({
    prompt: PARENT_PROMPT,
    options: {
      model: await modelFor(ctx.baseURL),
      systemPrompt: PARENT_INSTRUCTIONS,
      tools: [lookupTool],
      agents: {
        [CHILD_AGENT_TYPE]: {
          description: CHILD_AGENT_DESCRIPTION,
          prompt: CHILD_INSTRUCTIONS,
          tools: [LOOKUP_TOOL_NAME],
          maxTurns: ctx.childMaxTurns,
        },
      },
      stream: ctx.stream,
      maxParallel: Math.max(10, ctx.n),
      maxDepth: 1,
      retry: { maxRetries: 0 },
    },
  });
}

/**
 * The exploration job in `ctx.dir`: `single` reads every file itself with the built-in Read
 * tool; `delegated` hands the files to the built-in `explore` agent, several in parallel.
 */
export async function explore(ctx) {
  return finalText({
    prompt: EXPLORATION_PROMPT,
    options: {
      model: await modelFor(ctx.baseURL),
      systemPrompt: ctx.mode === 'single' ? READER_INSTRUCTIONS : DELEGATOR_INSTRUCTIONS,
      cwd: ctx.dir,
      retry: { maxRetries: 0 },
    },
  });
}
