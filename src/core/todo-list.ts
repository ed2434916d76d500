// The task list an agent keeps with TodoWrite: its shape, shared by the tool that accepts it and
// the readers that show it (the JSON result, stream-json).

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  /** What to do, in the imperative: "Run the tests". */
  content: string;
  status: TodoStatus;
  /** The same task as it is being done: "Running the tests". */
  activeForm?: string;
}

/**
 * The list in a TodoWrite call's input, or undefined when the input is not one. Readers of the
 * event stream see the model's raw input; a call that succeeded had a valid one, and this keeps
 * only the fields a list has.
 */
export function todoListOf(input: unknown): TodoItem[] | undefined {
  const todos = (input as { todos?: unknown } | null)?.todos;
  if (!Array.isArray(todos)) return undefined;
  const list: TodoItem[] = [];
  for (const todo of todos) {
    const { content, status, activeForm } = (todo ?? {}) as Record<string, unknown>;
    if (typeof content !== 'string' || !TODO_STATUSES.includes(status as TodoStatus)) {
      return undefined;
    }
    list.push({
      content,
      status: status as TodoStatus,
      ...(typeof activeForm === 'string' ? { activeForm } : {}),
    });
  }
  return list;
}
