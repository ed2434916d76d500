// One model call of the loop: stream the reply (or take it whole), time out a request that
// stops answering, retry what is worth retrying (within a bounded time), and hand back the
// finished assistant message with its usage. Providers come in as AI SDK LanguageModelV4s.
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  LanguageModelV4,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import { messageOf } from '../core/error-message.js';
import type { RetryOptions } from '../core/inherited-options.js';
import {
  type AssistantMessage,
  type Message,
  type TextPart,
  type ToolCallPart,
  textOf,
} from '../core/messages.js';
import type { Tool } from '../core/tool.js';
import type { Usage } from '../core/usage.js';
import { toModelPrompt, toModelTools, withCacheBreakpoints } from './model-prompt.js';
import type { ModelSettings } from './model-settings.js';
import { prefixKey, promptCacheGate } from './prompt-cache-gate.js';
import { RequestWatchdog } from './request-timeout.js';
import { isRetryable, retryDelayMs, StreamCutError } from './retry-policy.js';

export interface ModelTurnRequest {
  model: LanguageModelV4;
  messages: readonly Message[];
  tools: readonly Tool[];
  /** `none` asks for a reply without tool calls (the grace turn). */
  toolChoice: 'auto' | 'none';
  /** false: one request for the whole reply, which then comes as a single delta. */
  stream: boolean;
  signal: AbortSignal;
  retry: Required<RetryOptions>;
  /** No response, or no next chunk, for this long: the attempt fails (and is retried). */
  requestTimeoutMs: number;
  /** The line a retry notice shows for a failed attempt (default: the error's message). */
  describeFailure?: (error: unknown) => string;
  maxOutputTokens?: number;
  providerOptions?: SharedV4ProviderOptions;
  /** This agent's effort, temperature and cache lifetime. */
  settings?: ModelSettings;
  /** Extra HTTP headers of the request, e.g. who is asking (`x-warren-agent-id`). */
  headers?: Record<string, string>;
}

export type ModelTurnEvent =
  | { type: 'message_start' }
  | { type: 'message_delta'; text: string }
  | { type: 'retry'; attempt: number; delayMs: number; error: string };

export interface ModelTurn {
  message: AssistantMessage;
  usage: Usage;
  /** The provider's finish reason, unified (`stop`, `tool-calls`, `length`, …). */
  finishReason: string;
  /** What the provider said of its response: its id and the model that answered. */
  response?: { id?: string; modelId?: string };
}

/** Where a turn's events go as they happen: pushed, not yielded (no generator hop per delta). */
export type ModelTurnSink = (event: ModelTurnEvent) => void;

export async function modelTurn(
  request: ModelTurnRequest,
  emit: ModelTurnSink,
): Promise<ModelTurn> {
  const callOptions = buildCallOptions(request);
  // Requests that place cache breakpoints wait for a sibling already writing their prefix.
  const pass = usesCacheBreakpoints(request.model)
    ? await promptCacheGate(request.model).enter(
        prefixKey(request.tools, request.messages),
        request.signal,
      )
    : undefined;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const watchdog = new RequestWatchdog(request.requestTimeoutMs, request.signal);
    const attemptOptions = { ...callOptions, abortSignal: watchdog.signal };
    try {
      emit({ type: 'message_start' });
      if (request.stream) {
        const { stream } = await watchdog.wait(request.model.doStream(attemptOptions), 'response');
        return await readStream(stream, watchdog, emit, () => pass?.started());
      }
      const reply = fromContent(
        await watchdog.wait(request.model.doGenerate(attemptOptions), 'response'),
      );
      pass?.started();
      const text = textOf(reply.message);
      if (text) emit({ type: 'message_delta', text });
      return reply;
    } catch (thrown) {
      // Whoever waits for this prefix goes on without it rather than through the retries.
      pass?.failed();
      request.signal.throwIfAborted();
      // Whatever the abort broke on its way out, the cause was the silence.
      const error = watchdog.error ?? thrown;
      if (attempt >= request.retry.maxRetries || !isRetryable(error)) throw error;
      const delayMs = retryDelayMs(error, attempt, request.retry);
      if (Date.now() + delayMs - started > request.retry.maxElapsedMs) throw error;
      const describe = request.describeFailure ?? messageOf;
      emit({ type: 'retry', attempt: attempt + 1, delayMs, error: describe(error) });
      await sleep(delayMs, undefined, { signal: request.signal });
    } finally {
      watchdog.stop();
    }
  }
}

function buildCallOptions(request: ModelTurnRequest) {
  let prompt = toModelPrompt(request.messages);
  let tools = toModelTools(request.tools);
  if (usesCacheBreakpoints(request.model)) {
    ({ prompt, tools } = withCacheBreakpoints(prompt, tools, request.settings?.cacheTtl));
  }
  const { effort, temperature } = request.settings ?? {};
  return {
    prompt,
    ...(effort !== undefined && { reasoning: effort }),
    ...(temperature !== undefined && { temperature }),
    tools: tools.length > 0 ? tools : undefined,
    toolChoice: tools.length > 0 ? { type: request.toolChoice } : undefined,
    maxOutputTokens: request.maxOutputTokens,
    providerOptions: request.providerOptions,
    headers: request.headers,
  } as const;
}

/** Anthropic caches only what a request marks; other providers cache on their own. */
function usesCacheBreakpoints(model: LanguageModelV4): boolean {
  return model.provider.startsWith('anthropic');
}

async function readStream(
  stream: ReadableStream<LanguageModelV4StreamPart>,
  watchdog: RequestWatchdog,
  emit: ModelTurnSink,
  onFirstPart: () => void,
): Promise<ModelTurn> {
  const content: Array<TextPart | ToolCallPart> = [];
  let text: TextPart | undefined;
  let usage: Usage | undefined;
  let finishReason = 'other';
  let response: ModelTurn['response'];
  let first = true;
  const reader = stream.getReader();
  // Ends a read that waits on a provider that ignores the abort signal.
  watchdog.onFire(() => reader.cancel().catch(() => {}));
  let finished = false;
  try {
    for (;;) {
      watchdog.arm('stream');
      const next = await reader.read();
      watchdog.disarm();
      if (next.done) break;
      const part = next.value;
      // The response has begun (its first event, past the provider's own stream-start): the
      // prompt has been read, and its cache entry is readable.
      if (first && part.type !== 'stream-start') {
        first = false;
        onFirstPart();
      }
      switch (part.type) {
        case 'text-delta':
          if (!text) {
            text = { type: 'text', text: '' };
            content.push(text);
          }
          text.text += part.delta;
          emit({ type: 'message_delta', text: part.delta });
          break;
        case 'text-end':
          text = undefined;
          break;
        case 'tool-call':
          content.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: parseToolInput(part.input),
          });
          break;
        case 'response-metadata':
          response = responseOf(part);
          break;
        case 'error':
          throw part.error;
        case 'finish':
          checkFinished(part.finishReason);
          usage = toUsage(part.usage);
          finishReason = part.finishReason.unified;
          break;
      }
    }
    finished = true;
  } finally {
    // Left early (an error, an abort, a consumer that stopped): let go of the connection.
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  // A provider whose connection drops may close the stream quietly; without `finish` the
  // reply may be missing its tail, so it is treated like a dropped connection.
  if (!usage) throw new StreamCutError();
  return {
    message: { role: 'assistant', content },
    usage,
    finishReason,
    ...(response && { response }),
  };
}

/** The response's id and model, when the provider named them. */
function responseOf(
  metadata: { id?: string; modelId?: string } | undefined,
): ModelTurn['response'] {
  if (metadata?.id === undefined && metadata?.modelId === undefined) return undefined;
  return {
    ...(metadata.id !== undefined && { id: metadata.id }),
    ...(metadata.modelId !== undefined && { modelId: metadata.modelId }),
  };
}

function fromContent(result: {
  content: LanguageModelV4Content[];
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
  response?: { id?: string; modelId?: string };
}): ModelTurn {
  checkFinished(result.finishReason);
  const response = responseOf(result.response);
  const content: Array<TextPart | ToolCallPart> = [];
  for (const part of result.content) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    if (part.type === 'tool-call') {
      content.push({
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: parseToolInput(part.input),
      });
    }
  }
  return {
    message: { role: 'assistant', content },
    usage: toUsage(result.usage),
    finishReason: result.finishReason.unified,
    ...(response && { response }),
  };
}

/** Some providers end a broken reply with a finish that says so instead of an error. */
function checkFinished(reason: LanguageModelV4FinishReason): void {
  if (reason.unified === 'error' || reason.unified === 'interrupted') {
    throw new StreamCutError(`the response ended early (${reason.unified})`);
  }
}

/** Tool input arrives as JSON text; text that is not JSON is kept so the loop can say so. */
function parseToolInput(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function toUsage(usage: LanguageModelV4Usage): Usage {
  const cacheRead = usage.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
  const uncached =
    usage.inputTokens.noCache ??
    Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite);
  return {
    inputTokens: uncached,
    outputTokens: usage.outputTokens.total ?? 0,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
}
