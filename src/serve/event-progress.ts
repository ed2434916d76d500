// A run's events as the one-line progress a protocol client shows (MCP progress notifications,
// A2A working-status messages): agents starting and ending, tool calls, background tasks.
import type { AgentEvent } from '../core/events.js';

/** The line to report for an event, or undefined for one not worth a notification. */
export function progressLine(
  event: AgentEvent,
  path: (agentId: string) => string,
): string | undefined {
  switch (event.type) {
    case 'run_start':
      return `${event.path}: started (${event.agentType})`;
    case 'tool_start':
      return `${path(event.agentId)}: ${event.toolName}`;
    case 'task_started':
      return `${path(event.agentId)}: background task ${event.taskId} started`;
    case 'task_notification':
      return `${path(event.agentId)}: background task ${event.taskId} ${event.status}`;
    case 'result':
      return `${path(event.agentId)}: ${event.status}`;
    default:
      return undefined;
  }
}

/** Follows a run's tree so each line names the agent by its path (`main/Agent#1/explore`). */
export class ProgressLines {
  readonly #paths = new Map<string, string>();

  line(event: AgentEvent): string | undefined {
    if (event.type === 'run_start') this.#paths.set(event.agentId, event.path);
    return progressLine(event, (agentId) => this.#paths.get(agentId) ?? agentId);
  }
}
