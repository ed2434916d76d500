// The A2A words warren writes and reads: text and data parts, agent messages and status
// updates, shared by `warren a2a serve` and the `kind: remote` client.
import { randomUUID } from 'node:crypto';
import {
  type Message,
  type Part,
  Role,
  type SendMessageRequest,
  type TaskState,
  type TaskStatusUpdateEvent,
} from '@a2a-js/sdk';

export function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  };
}

export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/** A request to send `text` as a user's message: a new task unless `taskId` names one. */
export function sendTextRequest(
  text: string,
  options: { contextId?: string; metadata?: Record<string, unknown> } = {},
): SendMessageRequest {
  return {
    tenant: '',
    metadata: {},
    configuration: undefined,
    message: {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [textPart(text)],
      taskId: '',
      contextId: options.contextId ?? '',
      extensions: [],
      metadata: options.metadata ?? {},
      referenceTaskIds: [],
    },
  };
}

export function agentMessage(ids: { taskId: string; contextId: string }, text: string): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    taskId: ids.taskId,
    contextId: ids.contextId,
    extensions: [],
    metadata: {},
    referenceTaskIds: [],
  };
}

export function statusUpdate(
  ids: { taskId: string; contextId: string },
  state: TaskState,
  text?: string,
  metadata: Record<string, unknown> = {},
): TaskStatusUpdateEvent {
  return {
    taskId: ids.taskId,
    contextId: ids.contextId,
    status: {
      state,
      timestamp: new Date().toISOString(),
      message: text === undefined ? undefined : agentMessage(ids, text),
    },
    metadata,
  };
}

/** The text of a message's (or artifact's) text parts, joined. */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}

/** The first data part's value, if any. */
export function partsData(parts: readonly Part[] | undefined): unknown {
  for (const part of parts ?? []) if (part.content?.$case === 'data') return part.content.value;
  return undefined;
}
