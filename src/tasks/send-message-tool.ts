// SendMessage: continues another agent's conversation. A running agent reads the message before
// its next model call (recorded in the task store first); one that has ended resumes in the
// background with its whole history and notifies the sender. It addresses descendants and siblings.
import { z } from 'zod';
import type { AgentView } from '../core/background-port.js';
import { launchedOutput } from '../core/launched-output.js';
import { defineTool, type Tool, toolError } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';
import { agentMessageBlock, inboxMessage, newMessageId } from './task-notification.js';

const inputSchema = z.object({
  to: z.string().min(1).describe('The agent: its id (agent_…) or the name it was given at spawn.'),
  message: z.string().min(1).describe('What to tell it: self-contained, as for a new task.'),
});

export function sendMessageTool(tasks: BackgroundTasks): Tool {
  return defineTool({
    name: 'SendMessage',
    description:
      'Sends a message to an agent you started (or one below it, or a sibling), continuing its conversation with everything it already knows. A running agent reads it before its next step; an agent that has finished or was stopped resumes in the background, and you are notified with its answer. ListAgents shows whom you can address.',
    inputSchema,
    // It acts on the run's own agents; each of their calls is checked on its own.
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: 60_000,
    async call(input, ctx) {
      const { directory } = tasks.runtime;
      const caller = ctx.agent;
      const target = directory.resolve(caller.agentId, input.to);
      if (!target) return toolError(noSuchAgent(tasks, caller.agentId, input.to));
      const entry = directory.get(caller.agentId);
      const from = { agentId: caller.agentId, path: entry?.path ?? caller.agentType };
      const block = agentMessageBlock(from, input.message);
      if (target.remote) {
        if (target.status === 'running' && (await tasks.sendRemote(target.agentId, block))) {
          return `Delivered to ${describe(target)} on its worker: it reads the message after its current model call.`;
        }
        return toolError(
          `${describe(target)} runs remotely and has ended (${target.status}); a remote agent cannot be continued. Start a new agent with what it reported.`,
        );
      }
      if (target.status === 'running') {
        // With an id the store records it under, so a kill -9 before it is read loses nothing.
        const messageId = newMessageId();
        const text = agentMessageBlock(from, input.message, messageId);
        if (tasks.manager.sendTo(target.agentId, { text, messageId })) {
          return `Delivered to ${describe(target)}: it reads the message before its next step.`;
        }
        // Its loop has just ended: once it has, it is continued like any finished agent.
        await directory.whenEnded(target.agentId);
      }
      const { agentId, parentId, depth } = caller;
      const record = tasks.continueAgent(
        target.agentId,
        inboxMessage([{ notification: false, text: block }]),
        { agentId, parentId, depth },
      );
      if (!record) return toolError(`${describe(target)} cannot be continued.`);
      return `${launchedOutput(record.taskId, target.agentId, record.status)}\n${describe(target)} had ended (${target.status}); it continues with its whole conversation.`;
    },
  });
}

function describe(entry: AgentView): string {
  return `${entry.path}${entry.name ? ` "${entry.name}"` : ''} (${entry.agentId})`;
}

function noSuchAgent(tasks: BackgroundTasks, callerId: string, to: string): string {
  const addressable = tasks.runtime.directory.addressableFrom(callerId).map(describe);
  const list = addressable.length > 0 ? addressable.join(', ') : 'none';
  return `No agent "${to}" that you may address (your descendants and siblings). You may address: ${list}.`;
}
