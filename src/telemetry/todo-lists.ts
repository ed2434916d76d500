// The task list each agent keeps with TodoWrite, read from the event stream: a TodoWrite call
// whose result is not an error replaces its agent's list. What the JSON result's `agents[].todos`
// and stream-json's `todos` lines show.
import type { AgentEvent } from '../core/events.js';
import { type TodoItem, todoListOf } from '../core/todo-list.js';

const TODO_TOOL_NAME = 'TodoWrite';

export interface TodoListChange {
  agentId: string;
  todos: TodoItem[];
}

export class TodoLists {
  /** The list each running TodoWrite call sends, by agent and call id, until its result comes. */
  readonly #sent = new Map<string, TodoItem[]>();
  readonly #lists = new Map<string, TodoItem[]>();

  /** Follows one event; returns the agent's new list when this event changed it. */
  observe(event: AgentEvent): TodoListChange | undefined {
    if (event.type === 'tool_start' && event.toolName === TODO_TOOL_NAME) {
      const todos = todoListOf(event.input);
      if (todos) this.#sent.set(callKey(event), todos);
      return undefined;
    }
    if (event.type !== 'tool_end' || event.toolName !== TODO_TOOL_NAME) return undefined;
    const todos = this.#sent.get(callKey(event));
    this.#sent.delete(callKey(event));
    if (!todos || event.isError) return undefined;
    this.#lists.set(event.agentId, todos);
    return { agentId: event.agentId, todos };
  }

  /** The agent's latest list; null if it never wrote one. */
  of(agentId: string): TodoItem[] | null {
    return this.#lists.get(agentId) ?? null;
  }
}

/** Call ids are unique within an agent; a scripted model may reuse them across agents. */
function callKey(event: { agentId: string; toolCallId: string }): string {
  return `${event.agentId}\0${event.toolCallId}`;
}
