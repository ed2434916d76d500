// ListAgents: the part of the run's agent tree the caller may address with SendMessage (its
// descendants and its siblings), with names, types, status and last activity.
import { z } from 'zod';
import { defineTool, type Tool } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';

/** One schema for every run's ListAgents, so its JSON Schema is made once per process. */
const inputSchema = z.object({});

export function listAgentsTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'ListAgents',
    description:
      'Lists the agents you may address with SendMessage (those you started, those below them, and your siblings): path in the tree, id, name, type, status, background task and last activity.',
    inputSchema,
    isReadOnly: true,
    isConcurrencySafe: true,
    async call(_input, ctx) {
      const now = Date.now();
      const entries = tasks.runtime.directory.addressableFrom(ctx.agent.agentId);
      if (entries.length === 0) return 'No agents you may address yet.';
      return entries
        .map((entry) =>
          [
            entry.path,
            entry.agentId,
            entry.name ? `name=${entry.name}` : undefined,
            `type=${entry.agentType}`,
            `status=${entry.status}`,
            entry.background && entry.taskId ? `task=${entry.taskId}` : undefined,
            `last activity ${Math.round((now - entry.lastActivityAt) / 1000)} s ago`,
            JSON.stringify(entry.description),
          ]
            .filter(Boolean)
            .join('  '),
        )
        .join('\n');
    },
  });
}
