// A session's events (every agent of the tree) as ACP session updates: the main agent's text as
// message chunks, every tool call of every agent as a tool call with status, content and diffs,
// the main agent's TodoWrite as the plan, and each sub-agent inside the call that started it.
import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../core/events.js';
import { textOf } from '../core/messages.js';
import { todoListOf } from '../core/todo-list.js';
import {
  startsAgent,
  textContent,
  toolDiff,
  toolKind,
  toolLocations,
  toolTitle,
} from './tool-call-view.js';

/** The ACP id of an agent's tool call: ids are the model's, unique only within one agent. */
export function acpToolCallId(agentId: string, toolCallId: string): string {
  return `${agentId}:${toolCallId}`;
}

interface AgentSeat {
  path: string;
  cwd: string;
  agentType: string;
  /** The ACP id of the Agent (or delegate) call that contains this agent; none for the main one. */
  container: string | undefined;
}

interface OpenCall {
  agentId: string;
  toolName: string;
  input: unknown;
}

/** Turns events into updates, keeping what it must know of the tree between them. */
export class SessionUpdates {
  readonly #agents = new Map<string, AgentSeat>();
  readonly #calls = new Map<string, OpenCall>();
  /** What each agent-starting call's children did, one line each, shown as its content. */
  readonly #activity = new Map<string, string[]>();

  /** The agent's place in the tree (`main/Agent#1/explore`), once its run has started. */
  pathOf(agentId: string): string | undefined {
    return this.#agents.get(agentId)?.path;
  }

  /** The newest open call of an agent to a tool: what a permission question is about. */
  openCallOf(agentId: string, toolName: string): string | undefined {
    let found: string | undefined;
    for (const [id, call] of this.#calls) {
      if (call.agentId === agentId && call.toolName === toolName) found = id;
    }
    return found;
  }

  updatesOf(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'run_start':
        return this.#started(event);
      case 'message_delta':
        return event.depth === 0
          ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }]
          : [];
      case 'turn_end': {
        const text = textOf(event.message).trim();
        return event.depth === 0 || !text ? [] : this.#log(event.agentId, `said: ${text}`);
      }
      case 'tool_start':
        return this.#toolStarted(event);
      case 'tool_end':
        return this.#toolEnded(event);
      case 'result':
        return event.depth === 0
          ? []
          : this.#log(
              event.agentId,
              `ended ${event.status}${event.error ? `: ${event.error}` : ''}`,
            );
      case 'warning':
        return [
          thought(`warning (${this.pathOf(event.agentId) ?? event.agentId}): ${event.message}`),
        ];
      case 'task_notification':
        return event.depth === 0
          ? [thought(`background task ${event.description || event.taskId} ${event.status}`)]
          : [];
      default:
        return [];
    }
  }

  #started(event: AgentEvent & { type: 'run_start' }): SessionUpdate[] {
    const parent = event.parentId ? this.#agents.get(event.parentId) : undefined;
    const container =
      event.parentId && event.parentToolCallId
        ? acpToolCallId(event.parentId, event.parentToolCallId)
        : parent?.container;
    this.#agents.set(event.agentId, {
      path: event.path,
      cwd: event.cwd,
      agentType: event.agentType,
      container: event.depth === 0 ? undefined : container,
    });
    return event.depth === 0 ? [] : this.#log(event.agentId, `started (${event.agentType})`);
  }

  #toolStarted(event: AgentEvent & { type: 'tool_start' }): SessionUpdate[] {
    const id = acpToolCallId(event.agentId, event.toolCallId);
    this.#calls.set(id, { agentId: event.agentId, toolName: event.toolName, input: event.input });
    const seat = this.#agents.get(event.agentId);
    const title = toolTitle(event.toolName, event.input);
    const diff = toolDiff(event.toolName, event.input);
    const updates: SessionUpdate[] = [
      {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: event.depth === 0 || !seat ? title : `${seat.path} › ${title}`,
        kind: toolKind(event.toolName),
        status: 'in_progress',
        rawInput: event.input,
        locations: toolLocations(event.input, seat?.cwd),
        content: diff ? [diff] : [],
        _meta: this.#meta(event.agentId),
      },
    ];
    if (event.depth > 0) updates.push(...this.#log(event.agentId, title));
    const todos = event.toolName === 'TodoWrite' && event.depth === 0 && todoListOf(event.input);
    if (todos) {
      const entries: PlanEntry[] = todos.map((todo) => ({
        content: todo.content,
        status: todo.status,
        priority: 'medium',
      }));
      updates.push({ sessionUpdate: 'plan', entries });
    }
    return updates;
  }

  #toolEnded(event: AgentEvent & { type: 'tool_end' }): SessionUpdate[] {
    const id = acpToolCallId(event.agentId, event.toolCallId);
    const call = this.#calls.get(id);
    this.#calls.delete(id);
    const diff = call && !event.isError ? toolDiff(call.toolName, call.input) : undefined;
    const content: ToolCallContent[] = [
      ...(diff ? [diff] : []),
      ...(startsAgent(event.toolName) ? this.#activityContent(id) : []),
      ...(event.output ? [textContent(event.output)] : []),
    ];
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: event.isError ? 'failed' : 'completed',
        content,
        rawOutput: event.denial ? { output: event.output, denial: event.denial } : event.output,
        _meta: this.#meta(event.agentId),
      },
    ];
  }

  /** One more line of what a sub-agent did, shown inside the call that contains it. */
  #log(agentId: string, line: string): SessionUpdate[] {
    const seat = this.#agents.get(agentId);
    if (!seat?.container) return [];
    const lines = this.#activity.get(seat.container) ?? [];
    lines.push(`${seat.path}: ${line}`);
    this.#activity.set(seat.container, lines);
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: seat.container,
        content: this.#activityContent(seat.container),
      },
    ];
  }

  #activityContent(container: string): ToolCallContent[] {
    const lines = this.#activity.get(container);
    return lines ? [textContent(lines.join('\n'))] : [];
  }

  /** Which agent made the call and the call that contains it: a client may draw the tree. */
  #meta(agentId: string): Record<string, unknown> {
    const seat = this.#agents.get(agentId);
    return {
      warren: {
        agentId,
        agentPath: seat?.path ?? null,
        agentType: seat?.agentType ?? null,
        parentToolCallId: seat?.container ?? null,
      },
    };
  }
}

function thought(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } };
}
