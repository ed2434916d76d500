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
import type { CacheTtl } from './model-settings.js';

const schemaCache = new WeakMap<Tool, LanguageModelV4FunctionTool>();
/**
 * JSON Schemas by zod schema: the Agent and task tools are made anew for every query() (they
 * hold its runtime) around the same module-level schemas, and converting one costs milliseconds.
 */
const jsonSchemaCache = new WeakMap<object, JSONSchema7>();

/**
 * A zod schema as JSON Schema, made once per schema object. The built-in tools carry theirs
 * made ahead of time (tools/tool-json-schemas.ts), by this same function.
 */
export function inputJsonSchema(schema: Tool['inputSchema']): JSONSchema7 {
  let json = jsonSchemaCache.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { target: 'draft-07', io: 'input' }) as JSONSchema7;
    jsonSchemaCache.set(schema, json);
  }
  return json;
}

/**
 * The spec's tool list; each tool's JSON schema is computed once per tool object. A tool that
 * carries its own JSON Schema (an MCP tool's, a built-in's made ahead of time) is sent with it
 * as it is: no round trip through zod.
 */
export function toModelTools(tools: readonly Tool[]): LanguageModelV4FunctionTool[] {
  return tools.map((tool) => {
    let spec = schemaCache.get(tool);
    if (!spec) {
      const inputSchema = tool.jsonSchema ?? inputJsonSchema(tool.inputSchema);
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

/**
 * The last prompt made from each conversation (a run's message array): its messages as they
 * were then, and what they became. Messages never change once in a conversation, and it only
 * grows, so each request converts only what was appended, after a comparison of references.
 */
interface PromptMemo {
  readonly messages: Message[];
  readonly prompt: LanguageModelV4Message[];
}
const promptMemos = new WeakMap<readonly Message[], PromptMemo>();

export function toModelPrompt(messages: readonly Message[]): LanguageModelV4Prompt {
  let memo = promptMemos.get(messages);
  if (!memo || !extends_(messages, memo.messages)) {
    memo = { messages: [], prompt: [] };
    promptMemos.set(messages, memo);
  }
  for (let index = memo.messages.length; index < messages.length; index++) {
    const message = messages[index] as Message;
    memo.messages.push(message);
    memo.prompt.push(toModelMessage(message));
  }
  return memo.prompt.slice();
}

/** True when `messages` starts with `before`, message for message. */
function extends_(messages: readonly Message[], before: readonly Message[]): boolean {
  if (messages.length < before.length) return false;
  for (let index = 0; index < before.length; index++) {
    if (messages[index] !== before[index]) return false;
  }
  return true;
}

function toModelMessage(message: Message): LanguageModelV4Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...(message.files ?? []).map((file) => ({
            type: 'file' as const,
            mediaType: file.mediaType,
            data: { type: 'data' as const, data: file.data },
            ...(file.filename === undefined ? {} : { filename: file.filename }),
          })),
        ],
      };
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

/** Anthropic's cache marker; with a ttl, entries live that long instead of 5 minutes. */
function ephemeral(ttl: CacheTtl | undefined): SharedV4ProviderOptions {
  return { anthropic: { cacheControl: { type: 'ephemeral', ...(ttl && { ttl }) } } };
}

/**
 * Marks Anthropic's cache breakpoints (at most four) where a later request can read what this
 * one writes. A request is laid out tools, system, messages; each breakpoint caches the prefix
 * up to it:
 * - the last tool: the tool list alone, shared by agents with the same tools;
 * - the last system message: tools and system prompt, shared by siblings of one definition and
 *   by every turn of an agent;
 * - the message before the newest assistant reply: where the previous request of this
 *   conversation ended, so this one reads it exactly even when the reply and its tool results
 *   run past the 20 blocks Anthropic looks back from a breakpoint (ten parallel calls do);
 * - the newest message: the whole conversation, for the next turn, and for a forked child
 *   whose first request is this one plus a message.
 */
export function withCacheBreakpoints(
  prompt: LanguageModelV4Prompt,
  tools: LanguageModelV4FunctionTool[],
  ttl?: CacheTtl,
): { prompt: LanguageModelV4Prompt; tools: LanguageModelV4FunctionTool[] } {
  const EPHEMERAL = ephemeral(ttl);
  const marked = new Set<number>();
  const lastSystem = prompt.findLastIndex((message) => message.role === 'system');
  if (lastSystem >= 0) marked.add(lastSystem);
  const newestReply = prompt.findLastIndex((message) => message.role === 'assistant');
  if (newestReply - 1 > lastSystem) marked.add(newestReply - 1);
  if (prompt.length - 1 > lastSystem) marked.add(prompt.length - 1);
  const markedPrompt = prompt.map((message, index) =>
    marked.has(index) ? { ...message, providerOptions: EPHEMERAL } : message,
  ) as LanguageModelV4Prompt;
  const last = tools.at(-1);
  const markedTools = last
    ? [...tools.slice(0, -1), { ...last, providerOptions: EPHEMERAL }]
    : tools;
  return { prompt: markedPrompt, tools: markedTools };
}
