// Converts warren's messages and tools into the AI SDK provider spec, at the call boundary.
// Anthropic cache breakpoints go here too: they are a property of the prompt we send.
import type {
  JSONSchema7,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import { z } from 'zod';
import type { Message } from '../core/messages.js';
import type { Tool } from '../core/tool.js';

const schemaCache = new WeakMap<Tool, LanguageModelV4FunctionTool>();

/**
 * The spec's tool list; each tool's JSON schema is computed once per tool object. A tool that
 * carries its own JSON Schema (an MCP tool) is sent with it as it is: no round trip through zod.
 */
export function toModelTools(tools: readonly Tool[]): LanguageModelV4FunctionTool[] {
  return tools.map((tool) => {
    let spec = schemaCache.get(tool);
    if (!spec) {
      const inputSchema =
        tool.jsonSchema ?? z.toJSONSchema(tool.inputSchema, { target: 'draft-07', io: 'input' });
      spec = {
        type: 'function',
        name: tool.name,
        description: tool.description,
        inputSchema: inputSchema as JSONSchema7,
      };
      schemaCache.set(tool, spec);
    }
    return spec;
  });
}

/** Messages never change once in a conversation, so each is converted once, not every turn. */
const messageCache = new WeakMap<Message, LanguageModelV4Message>();

export function toModelPrompt(messages: readonly Message[]): LanguageModelV4Prompt {
  return messages.map((message) => {
    let converted = messageCache.get(message);
    if (!converted) {
      converted = toModelMessage(message);
      messageCache.set(message, converted);
    }
    return converted;
  });
}

function toModelMessage(message: Message): LanguageModelV4Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: [{ type: 'text', text: message.content }] };
    case 'assistant':
      return { role: 'assistant', content: message.content };
    case 'tool':
      return {
        role: 'tool',
        content: message.content.map((part) => ({
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: part.isError
            ? { type: 'error-text', value: part.output }
            : { type: 'text', value: part.output },
        })),
      };
  }
}

const EPHEMERAL: SharedV4ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * Marks Anthropic cache breakpoints so the stable prefix is billed as a cache read on the next
 * turn: the last tool (caches all tool definitions), the system prompt, and the newest message
 * (caches the conversation so far). Three of Anthropic's four allowed breakpoints.
 */
export function withCacheBreakpoints(
  prompt: LanguageModelV4Prompt,
  tools: LanguageModelV4FunctionTool[],
): { prompt: LanguageModelV4Prompt; tools: LanguageModelV4FunctionTool[] } {
  const marked = prompt.map((message, index) =>
    message.role === 'system' || index === prompt.length - 1
      ? { ...message, providerOptions: EPHEMERAL }
      : message,
  ) as LanguageModelV4Prompt;
  const last = tools.at(-1);
  const markedTools = last
    ? [...tools.slice(0, -1), { ...last, providerOptions: EPHEMERAL }]
    : tools;
  return { prompt: marked, tools: markedTools };
}
