// What the person typed in a conversation, told apart from what warren delivered as user messages
// (background tasks' notifications, messages to the agent).

/** A user message warren wrote: a `<task-notification>` or another harness block. */
export function isNotification(content: string): boolean {
  return content.startsWith('<') || content.includes('<task-notification>');
}

/** The prompts the person typed, in order. */
export function userPrompts(history: readonly { role: string; content: unknown }[]): string[] {
  return history.flatMap((message) =>
    message.role === 'user' &&
    typeof message.content === 'string' &&
    !isNotification(message.content)
      ? [message.content]
      : [],
  );
}
