// SendMessage's call: a running agent gets the message in its inbox (the store first), an ended
// one is continued in the background, a remote one gets it on its worker while it runs.
import type { AgentView } from '../core/background-port.js';
import { launchedOutput } from '../core/launched-output.js';
import { type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import type { BackgroundTasks } from './background-tasks.js';
import type { SendMessageInput } from './send-message-tool.js';
import { agentMessageBlock, inboxMessage, newMessageId } from './task-notification.js';

export async function sendMessage(
  tasks: BackgroundTasks,
  input: SendMessageInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
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
}

function describe(entry: AgentView): string {
  return `${entry.path}${entry.name ? ` "${entry.name}"` : ''} (${entry.agentId})`;
}

function noSuchAgent(tasks: BackgroundTasks, callerId: string, to: string): string {
  const addressable = tasks.runtime.directory.addressableFrom(callerId).map(describe);
  const list = addressable.length > 0 ? addressable.join(', ') : 'none';
  return `No agent "${to}" that you may address (your descendants and siblings). You may address: ${list}.`;
}
