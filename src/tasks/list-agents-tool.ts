// ListAgents: the part of the run's agent tree the caller may address with SendMessage (its
// descendants and its siblings), with names, types, status and last activity.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool } from '../core/tool.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import type { BackgroundTasks } from './background-tasks.js';

/** One schema for every run's ListAgents, so its JSON Schema is made once per process. */
export const listAgentsInputSchema = lazy(() => z.object({}));

export function listAgentsTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'ListAgents',
    description:
      'Lists the agents you may address with SendMessage (those you started, those below them, and your siblings): path in the tree, id, name, type, status, background task and last activity.',
    get inputSchema() {
      return listAgentsInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.ListAgents,
    isReadOnly: true,
    isConcurrencySafe: true,
    // The listing loads with the first call (list-agents-call.ts).
    call: async (_input, ctx) => (await import('./list-agents-call.js')).listAgents(tasks, ctx),
  });
}
