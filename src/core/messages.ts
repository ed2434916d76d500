// The conversation as warren stores it: plain JSON, so a transcript line is a message as-is.
// The model layer converts these to the provider spec's prompt at the call boundary.

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: string;
  isError: boolean;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

/** An image or audio clip sent with a person's prompt: base64 bytes and their media type. */
export interface FilePart {
  type: 'file';
  /** An IANA media type, `image/png`, `audio/wav`, … */
  mediaType: string;
  /** The bytes, base64. */
  data: string;
  filename?: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
  /** Images or audio that came with the prompt (an ACP editor's), for models that take them. */
  files?: FilePart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ToolCallPart>;
}

export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export function textOf(message: AssistantMessage): string {
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}
