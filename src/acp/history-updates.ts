// A resumed conversation replayed to an ACP client (`session/load`): the person's prompts, the
// main agent's replies, and its tool calls with their results, in the order they happened.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message } from '../core/messages.js';
import { acpToolCallId } from './session-updates.js';
import { textContent, toolDiff, toolKind, toolLocations, toolTitle } from './tool-call-view.js';

/** The updates that show `messages` again; `agentId` keeps their tool call ids apart. */
export function historyUpdates(
  messages: readonly Message[],
  agentId: string,
  cwd: string,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      updates.push({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: message.content },
      });
      for (const file of message.files ?? []) {
        const kind = file.mediaType.startsWith('audio/') ? 'audio' : 'image';
        updates.push({
          sessionUpdate: 'user_message_chunk',
          content: { type: kind, mimeType: file.mediaType, data: file.data },
        });
      }
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'text') {
          if (part.text) {
            updates.push({
              sessionUpdate: 'agent_message_chunk',
              content: { type: 'text', text: part.text },
            });
          }
          continue;
        }
        const diff = toolDiff(part.toolName, part.input);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: acpToolCallId(agentId, part.toolCallId),
          title: toolTitle(part.toolName, part.input),
          kind: toolKind(part.toolName),
          status: 'pending',
          rawInput: part.input,
          locations: toolLocations(part.input, cwd),
          content: diff ? [diff] : [],
        });
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        updates.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: acpToolCallId(agentId, part.toolCallId),
          status: part.isError ? 'failed' : 'completed',
          content: part.output ? [textContent(part.output)] : [],
          rawOutput: part.output,
        });
      }
    }
  }
  return updates;
}
