// What `--verbose` writes on stderr, one line per event worth a person's eye: each sub-agent's
// lines carry its type and a short id, so parallel children of one type can be told apart, and a
// remote child's tool calls (which ran on a worker) are listed from its conversation when it ends.
import type { AgentEvent, AgentEventOf } from '../../core/events.js';
import { toolCallsOf } from '../../core/messages.js';

export class VerboseProgress {
  /** Agents whose tool calls were seen live; a remote child's never are. */
  readonly #toolsSeen = new Set<string>();
  readonly #types = new Map<string, string>();

  /** The lines `event` adds (often none), each already indented by depth, without newlines. */
  lines(event: AgentEvent): string[] {
    const indent = '  '.repeat(event.depth);
    const label = event.depth === 0 ? '' : `[${this.#label(event)}] `;
    switch (event.type) {
      case 'run_start':
        this.#types.set(event.agentId, event.agentType);
        return event.depth === 0 ? [] : [`${indent}▸ ${this.#label(event)}: ${event.description}`];
      case 'tool_start':
        this.#toolsSeen.add(event.agentId);
        return [`${indent}${label}→ ${event.toolName} ${summarize(event.input)}`];
      case 'result':
        return event.depth === 0
          ? []
          : [
              ...this.#unseenToolCalls(event, indent, label),
              `${indent}◂ ${this.#label(event)} ${event.status}`,
            ];
      default: {
        const line = otherLine(event);
        return line === undefined ? [] : [`${indent}${label}${line}`];
      }
    }
  }

  /** `explore 1a2b3c4d`: the agent's type and the random part of its id. */
  #label(event: AgentEvent): string {
    const type = this.#types.get(event.agentId) ?? (event.type === 'result' ? event.agentType : '');
    const id = event.agentId.replace(/^agent_/, '');
    return type ? `${type} ${id}` : id;
  }

  /** A child that ran elsewhere: its tool calls, read from the conversation it came back with. */
  #unseenToolCalls(result: AgentEventOf<'result'>, indent: string, label: string): string[] {
    if (this.#toolsSeen.has(result.agentId)) return [];
    return result.messages.flatMap((message) =>
      message.role === 'assistant'
        ? toolCallsOf(message).map(
            (call) => `${indent}${label}→ ${call.toolName} ${summarize(call.input)} (ran remotely)`,
          )
        : [],
    );
  }
}

function otherLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'tool_end':
      // A denial has a line of its own (denial-report.ts), verbose or not.
      if (!event.isError || event.denial !== undefined) return undefined;
      return `  ✗ ${event.toolName}: ${firstLine(event.output)}`;
    case 'retry':
      return `… retrying in ${Math.round(event.delayMs)} ms (attempt ${event.attempt}): ${event.error}`;
    case 'worktree':
      return event.action === 'created'
        ? `  worktree ${event.path} (branch ${event.branch})`
        : `  worktree ${event.action}: ${event.action === 'kept' ? `${event.path} (branch ${event.branch})` : event.path}`;
    case 'task_started':
      return `⇢ ${event.taskId} started in the background: ${event.description}`;
    case 'task_notification':
      return `⇠ ${event.taskId} ${event.status}${event.error ? `: ${firstLine(event.error)}` : ''}`;
    default:
      return undefined;
  }
}

function summarize(input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
