// ScriptedModel: a LanguageModelV4 that answers from a script of turns instead of a provider, so
// the real loop runs offline and deterministically, parallel sub-agents included.

import { basename, extname } from 'node:path';
import { setTimeout as sleepFor } from 'node:timers/promises';
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4FinishReason,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
  type LanguageModelV4ToolCall,
  type LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { messageText, type RequestView, requestMatcher, viewRequest } from './scripted-request.js';
import { readScript, type ScriptError, type ScriptTurn, validateTurns } from './scripted-script.js';

export interface ScriptedModelOptions {
  /** Answers, each used once: a call gets the first unused turn whose `match` fits it. */
  turns: ScriptTurn[];
  /** Defaults to `script`. */
  modelId?: string;
}

interface PreparedTurn {
  turn: ScriptTurn;
  index: number;
  fits: (request: RequestView) => boolean;
  /** Made with the model, so generated ids do not depend on the order calls arrive in. */
  toolCalls: LanguageModelV4ToolCall[];
  used: boolean;
}

/** One call's answer, ready to be sent whole or streamed. */
interface Reply {
  responseId: string;
  delayMs: number;
  text: string | undefined;
  toolCalls: LanguageModelV4ToolCall[];
  usage: LanguageModelV4Usage;
  finishReason: LanguageModelV4FinishReason;
  failure: APICallError | undefined;
  /** Text deltas to send before failing; undefined unless the turn cuts the stream. */
  cutAfterDeltas: number | undefined;
}

const TOOL_INPUT_CHUNK = 16;

export class ScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  /** Every call in the order made, failed and aborted ones included. */
  readonly calls: LanguageModelV4CallOptions[] = [];
  readonly #turns: PreparedTurn[];

  constructor(options: ScriptedModelOptions) {
    this.modelId = options.modelId ?? 'script';
    let nextToolCallId = 0;
    this.#turns = validateTurns(options.turns).map((turn, index) => ({
      turn,
      index,
      fits: requestMatcher(turn.match),
      toolCalls: (turn.toolCalls ?? []).map(
        (call): LanguageModelV4ToolCall => ({
          type: 'tool-call',
          toolCallId: call.id ?? `call_${++nextToolCallId}`,
          toolName: call.name,
          input: JSON.stringify(call.input),
        }),
      ),
      used: false,
    }));
  }

  /** The turns no call has used yet, in script order. */
  get remaining(): ScriptTurn[] {
    return this.#turns.filter((prepared) => !prepared.used).map((prepared) => prepared.turn);
  }

  /** Throws, naming each unused turn, unless every turn of the script was used. */
  assertComplete(): void {
    const unused = this.#turns.filter((prepared) => !prepared.used);
    if (unused.length === 0) return;
    throw new Error(
      `ScriptedModel: ${unused.length} of ${this.#turns.length} turns were never used:\n` +
        unused.map((prepared) => `  ${describeTurn(prepared)}`).join('\n'),
    );
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const reply = this.#answer(options);
    await sleep(reply.delayMs, options.abortSignal);
    if (reply.failure) throw reply.failure;
    const content: LanguageModelV4Content[] = [];
    if (reply.text) content.push({ type: 'text', text: reply.text });
    content.push(...reply.toolCalls);
    return {
      content,
      finishReason: reply.finishReason,
      usage: reply.usage,
      warnings: [],
      response: { id: reply.responseId, modelId: this.modelId },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const reply = this.#answer(options);
    // An HTTP error status arrives before any stream does; only a cut fails inside the stream.
    if (reply.failure && reply.cutAfterDeltas === undefined) {
      await sleep(reply.delayMs, options.abortSignal);
      throw reply.failure;
    }
    return { stream: this.#stream(reply, options.abortSignal) };
  }

  /** Picks and uses up the turn for a call; runs before the call's first await. */
  #answer(options: LanguageModelV4CallOptions): Reply {
    this.calls.push(options);
    options.abortSignal?.throwIfAborted();
    const request = viewRequest(options);
    const prepared = this.#turns.find((candidate) => !candidate.used && candidate.fits(request));
    if (!prepared) throw new Error(this.#describeMismatch(request));
    prepared.used = true;
    const { turn, toolCalls } = prepared;
    return {
      responseId: `scripted-${this.calls.length}`,
      delayMs: turn.delayMs ?? 0,
      text: turn.text,
      toolCalls,
      usage: usageOf(turn, options.prompt, toolCalls),
      finishReason:
        toolCalls.length > 0
          ? { unified: 'tool-calls', raw: 'tool_calls' }
          : { unified: 'stop', raw: 'stop' },
      failure: turn.error && failureOf(turn.error, { modelId: this.modelId, options }),
      cutAfterDeltas: turn.error?.cutAfterDeltas,
    };
  }

  #stream(
    reply: Reply,
    signal: AbortSignal | undefined,
  ): ReadableStream<LanguageModelV4StreamPart> {
    const parts = this.#streamParts(reply);
    let next = 0;
    return new ReadableStream<LanguageModelV4StreamPart>({
      start: () => sleep(reply.delayMs, signal),
      pull: (controller) => {
        const part = parts[next++];
        if (signal?.aborted) {
          controller.error(signal.reason);
        } else if (part) {
          controller.enqueue(part);
        } else if (reply.failure) {
          controller.error(reply.failure);
        } else {
          controller.close();
        }
      },
    });
  }

  #streamParts(reply: Reply): LanguageModelV4StreamPart[] {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: reply.responseId, modelId: this.modelId },
    ];
    if (reply.text) {
      const id = `${reply.responseId}-text`;
      const deltas = splitIntoWords(reply.text).slice(0, reply.cutAfterDeltas);
      parts.push({ type: 'text-start', id });
      for (const delta of deltas) parts.push({ type: 'text-delta', id, delta });
      if (reply.cutAfterDeltas !== undefined) return parts;
      parts.push({ type: 'text-end', id });
    }
    for (const call of reply.toolCalls) {
      const id = call.toolCallId;
      parts.push({ type: 'tool-input-start', id, toolName: call.toolName });
      for (let at = 0; at < call.input.length; at += TOOL_INPUT_CHUNK) {
        parts.push({
          type: 'tool-input-delta',
          id,
          delta: call.input.slice(at, at + TOOL_INPUT_CHUNK),
        });
      }
      parts.push({ type: 'tool-input-end', id }, call);
    }
    parts.push({ type: 'finish', usage: reply.usage, finishReason: reply.finishReason });
    return parts;
  }

  #describeMismatch(request: RequestView): string {
    const unused = this.#turns.filter((prepared) => !prepared.used);
    const lines = [
      `ScriptedModel: no unused turn fits this call (${unused.length} of ${this.#turns.length} turns unused)`,
      `  system: ${quoteHead(request.system)}`,
      `  last user message: ${quoteHead(request.prompt)}`,
      `  last tool result: ${request.lastToolResult === undefined ? 'none' : quoteHead(request.lastToolResult)}`,
      `  tools offered: ${request.tools.join(', ') || 'none'}`,
      `  agent: ${request.agent || 'unknown'}`,
    ];
    if (unused.length > 0) {
      lines.push('unused turns:', ...unused.map((prepared) => `  ${describeTurn(prepared)}`));
    }
    return lines.join('\n');
  }
}

/** `new ScriptedModel({ turns })`, for tests that need nothing else. */
export function scriptedModel(turns: ScriptTurn[]): ScriptedModel {
  return new ScriptedModel({ turns });
}

/** The model behind `--model scripted:<file>`; its id is the script's `model`, else the file name. */
export async function loadScriptedModel(path: string): Promise<ScriptedModel> {
  const script = await readScript(path);
  return new ScriptedModel({
    turns: script.turns,
    modelId: script.model ?? basename(path, extname(path)),
  });
}

/** Scripted counts where given; otherwise about four characters a token, never zero. */
function usageOf(
  turn: ScriptTurn,
  prompt: LanguageModelV4Prompt,
  toolCalls: LanguageModelV4ToolCall[],
): LanguageModelV4Usage {
  const promptChars = prompt.reduce((total, message) => total + messageText(message).length, 0);
  const replyChars = toolCalls.reduce(
    (total, call) => total + call.toolName.length + call.input.length,
    turn.text?.length ?? 0,
  );
  const input = turn.usage?.input ?? estimateTokens(promptChars);
  const output = turn.usage?.output ?? estimateTokens(replyChars);
  const cacheRead = turn.usage?.cacheRead ?? 0;
  const cacheWrite = turn.usage?.cacheWrite ?? 0;
  return {
    inputTokens: { total: input + cacheRead + cacheWrite, noCache: input, cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

function failureOf(
  error: ScriptError,
  context: { modelId: string; options: LanguageModelV4CallOptions },
): APICallError {
  const { status, retryAfter, cutAfterDeltas } = error;
  const message =
    error.message ??
    (status !== undefined
      ? `${status} ${statusText(status)}`
      : cutAfterDeltas !== undefined
        ? `stream cut after ${cutAfterDeltas} text deltas`
        : 'scripted failure');
  return new APICallError({
    message,
    url: `scripted:${context.modelId}`,
    requestBodyValues: { prompt: context.options.prompt },
    statusCode: status,
    responseHeaders: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) },
    responseBody: JSON.stringify({ error: { message } }),
    // With a status the SDK's own rule applies (408, 409, 429, 5xx); a cut without one is a
    // dropped connection, which is worth retrying.
    isRetryable: status === undefined ? cutAfterDeltas !== undefined : undefined,
  });
}

/** Waits, ending early with the signal's reason (an AbortError, as fetch gives) on abort. */
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) return;
  try {
    await sleepFor(ms, undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

/** Word-sized deltas that join back into exactly the text. */
function splitIntoWords(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function quoteHead(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}

function describeTurn({ turn, index }: PreparedTurn): string {
  const answer = turn.error
    ? `error ${turn.error.status ?? 'cut'}`
    : turn.toolCalls
      ? `tool calls ${turn.toolCalls.map((call) => call.name).join(', ')}`
      : `text ${quoteHead(turn.text ?? '')}`;
  const match = turn.match ? ` matching ${JSON.stringify(turn.match)}` : '';
  return `turns[${index}]${match}: ${answer}`;
}

/**
 * The reason phrase of an HTTP status. From Node's CommonJS object: an ES import of node:http
 * loads undici's WebSocket with it (see tools/http-get.ts).
 */
function statusText(status: number): string {
  return process.getBuiltinModule('node:http').STATUS_CODES[status] ?? 'error';
}
