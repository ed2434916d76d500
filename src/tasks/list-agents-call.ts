// ListAgents' call: one line per agent the caller may address, with its status as it stands.
import type { AgentView } from '../core/background-port.js';
import { shownTaskStatus } from '../core/tasks.js';
import type { ToolContext } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';

export function listAgents(tasks: BackgroundTasks, ctx: ToolContext): string {
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
        `status=${statusOf(entry, tasks)}`,
        entry.background && entry.taskId ? `task=${entry.taskId}` : undefined,
        `last activity ${Math.round((now - entry.lastActivityAt) / 1000)} s ago`,
        JSON.stringify(entry.description),
      ]
        .filter(Boolean)
        .join('  '),
    )
    .join('\n');
}

/**
 * `blocked` while its background task waits on a person's permission answer; `busy` while its own
 * turn is over but agents below it still run (it is not idle: it waits for them).
 */
function statusOf(entry: AgentView, tasks: BackgroundTasks): string {
  if (entry.status !== 'running') return entry.status;
  const task = entry.background && entry.taskId ? tasks.manager.get(entry.taskId) : undefined;
  if (task && shownTaskStatus(task) === 'blocked') return `blocked (${task.progress.blockedOn})`;
  const below = entry.waiting ? tasks.runtime.directory.runningBelow(entry.agentId) : 0;
  return below > 0 ? `busy (${below} agent${below === 1 ? '' : 's'} below it running)` : 'running';
}
