// SendMessage: continues another agent's conversation. A running agent reads the message before
// its next model call (recorded in the task store first); one that has ended resumes in the
// background with its whole history and notifies the sender. It addresses descendants and siblings.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool } from '../core/tool.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import type { BackgroundTasks } from './background-tasks.js';

export const sendMessageInputSchema = lazy(() =>
  z.object({
    to: z
      .string()
      .min(1)
      .describe('The agent: its id (agent_…) or the name it was given at spawn.'),
    message: z.string().min(1).describe('What to tell it: self-contained, as for a new task.'),
  }),
);

export type SendMessageInput = z.output<ReturnType<typeof sendMessageInputSchema>>;

export function sendMessageTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'SendMessage',
    description:
      'Sends a message to an agent you started (or one below it, or a sibling), continuing its conversation with everything it already knows. A running agent reads it before its next step; an agent that has finished or was stopped resumes in the background, and you are notified with its answer. ListAgents shows whom you can address.',
    get inputSchema() {
      return sendMessageInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.SendMessage,
    // It acts on the run's own agents; each of their calls is checked on its own.
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: 60_000,
    // Delivering loads with the first call (send-message-call.ts).
    call: async (input, ctx) =>
      (await import('./send-message-call.js')).sendMessage(tasks, input, ctx),
  });
}
