// A loopback HTTP server that answers like the OpenAI Chat Completions and Anthropic Messages
// APIs, byte for byte where clients look, so tests drive the real AI SDK providers over a socket.
// Replies are scripted (a FIFO queue, or a handler); every request is recorded.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface MockToolCall {
  /** Defaults to `call_mock<n>` (OpenAI) or `toolu_mock<n>` (Anthropic). */
  id?: string;
  name: string;
  /** A string is sent as the raw arguments text, as is: the way to send arguments that are not JSON. */
  input: unknown;
}

/** Token counts as Anthropic reports them: `input` excludes the cached tokens. */
export interface MockUsage {
  input: number;
  output: number;
  cacheRead?: number;
  /** Anthropic only; OpenAI has no cache writes and counts these as plain prompt tokens. */
  cacheWrite?: number;
}

export interface MockReply {
  /** A string streams one word per chunk; an array streams exactly those pieces. */
  text?: string | string[];
  toolCalls?: MockToolCall[];
  /** Defaults to about one token per four bytes of request body and of output. */
  usage?: MockUsage;
  /** Ends as if the output token limit was hit: `length` / `max_tokens`. */
  truncated?: boolean;
  /** An HTTP status of 400 or more sends an error in the API's own error shape. */
  status?: number;
  /** Replaces the error body (an object is sent as JSON, a string as-is). */
  errorBody?: unknown;
  /** The message inside the API-shaped error body, and of `errorEventAfterChunks`. */
  errorMessage?: string;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /**
   * Sends this many SSE events, then closes the connection mid-body, as a dying server or proxy
   * does. A JSON reply closes it before sending anything.
   */
  cutAfterChunks?: number;
  /** SSE: sends this many chunks, then ends the response cleanly, without the API's end marker. */
  endAfterChunks?: number;
  /** SSE: sends this many chunks, then the API's in-stream error event, then ends cleanly. */
  errorEventAfterChunks?: number;
  /** Wait before the response starts. */
  delayMs?: number;
  /** Wait between SSE chunks. */
  chunkDelayMs?: number;
}

export type MockApi = 'openai-chat' | 'anthropic-messages';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Undefined for a path neither API serves. */
  api: MockApi | undefined;
  /** Lower-case names, as node parses them. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

/** Returns the reply for a request, or undefined to take the next queued one. */
export type MockReplyHandler = (
  request: RecordedRequest,
) => MockReply | undefined | Promise<MockReply | undefined>;

export interface MockLlmServerOptions {
  replies?: MockReply[];
  handler?: MockReplyHandler;
}

export interface MockLlmServer {
  /** `http://127.0.0.1:<port>`; the APIs live under `/v1`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Queued replies not yet served. */
  readonly pendingReplies: number;
  enqueue(...replies: MockReply[]): void;
  /** Stops listening and drops every open connection, mid-stream ones included. */
  close(): Promise<void>;
}

const ROUTES: Record<string, MockApi> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/messages': 'anthropic-messages',
};

const ARGUMENT_PIECE_CHARS = 12;

export async function startMockLlmServer(
  options: MockLlmServerOptions = {},
): Promise<MockLlmServer> {
  const queue: MockReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  let toolCallCount = 0;
  const nextToolCallId = (prefix: string) => `${prefix}${++toolCallCount}`;

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, 500, { error: { message: `mock-llm-server: ${String(error)}` } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const api = req.method === 'POST' ? ROUTES[path] : undefined;
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      api,
      headers: flattenHeaders(req),
      body: parseBody(rawBody),
    };
    requests.push(request);

    if (api === undefined) {
      sendJson(res, 404, {
        error: { message: `mock-llm-server: no route for ${request.method} ${path}` },
      });
      return;
    }
    const wire = api === 'openai-chat' ? openAiChatWire : anthropicWire;
    if (typeof request.body !== 'object' || request.body === null) {
      sendJson(res, 400, wire.errorBody(400, 'mock-llm-server: the request body is not JSON'));
      return;
    }

    const reply = (await options.handler?.(request)) ?? queue.shift();
    if (reply === undefined) {
      const message =
        `mock-llm-server: no reply was scripted for request #${requests.length} ` +
        `(${request.method} ${path}); enqueue() one or pass a handler`;
      sendJson(res, 500, wire.errorBody(500, message));
      return;
    }

    const signal = requestSignal(res, shutdown.signal);
    if (reply.delayMs) await sleep(reply.delayMs, undefined, { signal }).catch(() => {});
    if (signal.aborted) return;

    const status = reply.status ?? 200;
    if (status >= 400) {
      const body =
        reply.errorBody ??
        wire.errorBody(status, reply.errorMessage ?? defaultErrorMessage(status));
      sendBody(res, status, body, { ...wire.idHeader(), ...reply.headers });
      return;
    }

    const body = request.body as Record<string, unknown>;
    const call: ResolvedCall = {
      reply,
      model: typeof body.model === 'string' ? body.model : 'mock-model',
      textPieces: textPiecesOf(reply.text),
      toolCalls: (reply.toolCalls ?? []).map((toolCall) => ({
        id: toolCall.id ?? nextToolCallId(wire.toolCallIdPrefix),
        name: toolCall.name,
        arguments:
          typeof toolCall.input === 'string'
            ? toolCall.input
            : JSON.stringify(toolCall.input ?? {}),
      })),
      usage: completeUsage(reply.usage ?? estimateUsage(rawBody, reply)),
      includeStreamUsage: wantsStreamUsage(body),
    };

    if (body.stream !== true) {
      if (reply.cutAfterChunks !== undefined) {
        dropConnection(res);
        return;
      }
      sendBody(res, status, wire.json(call), { ...wire.idHeader(), ...reply.headers });
      return;
    }
    await streamEvents(res, call, wire, signal);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get pendingReplies() {
      return queue.length;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    close() {
      shutdown.abort();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

async function streamEvents(
  res: ServerResponse,
  call: ResolvedCall,
  wire: WireFormat,
  signal: AbortSignal,
): Promise<void> {
  const { reply } = call;
  const events = wire.sseEvents(call);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...wire.idHeader(),
    ...reply.headers,
  });
  res.flushHeaders();

  const cutAt = atMost(reply.cutAfterChunks, events.length);
  const endAt = atMost(reply.endAfterChunks, events.length);
  const errorAt = atMost(reply.errorEventAfterChunks, events.length);
  for (let index = 0; index <= events.length; index++) {
    if (index > 0 && reply.chunkDelayMs) {
      await sleep(reply.chunkDelayMs, undefined, { signal }).catch(() => {});
    }
    if (signal.aborted) return;
    if (index === cutAt) {
      dropConnection(res);
      return;
    }
    if (index === endAt) {
      res.end();
      return;
    }
    if (index === errorAt) {
      res.end(wire.streamErrorEvent(reply.errorMessage ?? 'Overloaded'));
      return;
    }
    const event = events[index];
    if (event !== undefined) res.write(event);
  }
  res.end();
}

/**
 * Closes the connection mid-response, after what was written has gone out: a FIN, not a reset,
 * so the client reads the chunks before the close, as when a proxy or server dies mid-stream.
 */
function dropConnection(res: ServerResponse): void {
  res.socket?.end();
}

/** Aborts when the server shuts down or the client goes away before the response ends. */
function requestSignal(res: ServerResponse, shutdown: AbortSignal): AbortSignal {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return AbortSignal.any([shutdown, gone.signal]);
}

// ---- one wire format per API ------------------------------------------------------------------

interface ResolvedToolCall {
  id: string;
  name: string;
  /** The input as the JSON text the APIs stream. */
  arguments: string;
}

interface ResolvedCall {
  reply: MockReply;
  model: string;
  textPieces: string[];
  toolCalls: ResolvedToolCall[];
  usage: Required<MockUsage>;
  includeStreamUsage: boolean;
}

interface WireFormat {
  toolCallIdPrefix: string;
  idHeader(): Record<string, string>;
  json(call: ResolvedCall): unknown;
  /** Complete SSE events, each ending in a blank line. */
  sseEvents(call: ResolvedCall): string[];
  errorBody(status: number, message: string): unknown;
  streamErrorEvent(message: string): string;
}

const openAiChatWire: WireFormat = {
  toolCallIdPrefix: 'call_mock',
  idHeader: () => ({ 'x-request-id': `req_${randomUUID().replaceAll('-', '')}` }),

  json(call) {
    const text = call.textPieces.join('');
    return {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: nowSeconds(),
      model: call.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && call.toolCalls.length > 0 ? null : text,
            refusal: null,
            ...(call.toolCalls.length > 0 && {
              tool_calls: call.toolCalls.map((toolCall) => ({
                id: toolCall.id,
                type: 'function',
                function: { name: toolCall.name, arguments: toolCall.arguments },
              })),
            }),
            annotations: [],
          },
          logprobs: null,
          finish_reason: openAiFinishReason(call),
        },
      ],
      usage: openAiUsage(call.usage),
      service_tier: 'default',
      system_fingerprint: 'fp_mock',
    };
  },

  sseEvents(call) {
    const base = {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion.chunk',
      created: nowSeconds(),
      model: call.model,
      service_tier: 'default',
      system_fingerprint: 'fp_mock',
    };
    // With include_usage, OpenAI adds `usage: null` to every chunk and sends the usage last.
    const usageField = call.includeStreamUsage ? { usage: null } : {};
    const chunk = (delta: object, finishReason: string | null = null) =>
      sseData({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...usageField,
      });

    const events = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const piece of call.textPieces) events.push(chunk({ content: piece }));
    for (const [index, toolCall] of call.toolCalls.entries()) {
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: toolCall.id,
              type: 'function',
              function: { name: toolCall.name, arguments: '' },
            },
          ],
        }),
      );
      for (const piece of splitEvery(toolCall.arguments, ARGUMENT_PIECE_CHARS)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
    events.push(chunk({}, openAiFinishReason(call)));
    if (call.includeStreamUsage) {
      events.push(sseData({ ...base, choices: [], usage: openAiUsage(call.usage) }));
    }
    events.push('data: [DONE]\n\n');
    return events;
  },

  errorBody(status, message) {
    const [type, code] = openAiErrorKind(status);
    return { error: { message, type, param: null, code } };
  },

  streamErrorEvent(message) {
    return sseData({ error: { message, type: 'server_error', param: null, code: null } });
  },
};

const anthropicWire: WireFormat = {
  toolCallIdPrefix: 'toolu_mock',
  idHeader: () => ({ 'request-id': `req_${randomUUID().replaceAll('-', '')}` }),

  json(call) {
    const text = call.textPieces.join('');
    return {
      id: `msg_${randomUUID().replaceAll('-', '')}`,
      type: 'message',
      role: 'assistant',
      model: call.model,
      content: [
        ...(text === '' ? [] : [{ type: 'text', text }]),
        ...call.toolCalls.map((toolCall) => ({
          type: 'tool_use',
          id: toolCall.id,
          name: toolCall.name,
          input: JSON.parse(toolCall.arguments),
        })),
      ],
      stop_reason: anthropicStopReason(call),
      stop_sequence: null,
      usage: { ...anthropicInputUsage(call.usage), output_tokens: call.usage.output },
    };
  },

  sseEvents(call) {
    const events = [
      sseEvent('message_start', {
        message: {
          id: `msg_${randomUUID().replaceAll('-', '')}`,
          type: 'message',
          role: 'assistant',
          model: call.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...anthropicInputUsage(call.usage), output_tokens: 1 },
        },
      }),
    ];
    let index = 0;
    const startBlock = (block: object) => {
      events.push(sseEvent('content_block_start', { index, content_block: block }));
      // The real API sends one ping right after the first block starts.
      if (index === 0) events.push(sseEvent('ping', {}));
    };
    const delta = (payload: object) =>
      events.push(sseEvent('content_block_delta', { index, delta: payload }));
    const stopBlock = () => events.push(sseEvent('content_block_stop', { index: index++ }));

    if (call.textPieces.length > 0) {
      startBlock({ type: 'text', text: '' });
      for (const piece of call.textPieces) delta({ type: 'text_delta', text: piece });
      stopBlock();
    }
    for (const toolCall of call.toolCalls) {
      startBlock({ type: 'tool_use', id: toolCall.id, name: toolCall.name, input: {} });
      delta({ type: 'input_json_delta', partial_json: '' });
      for (const piece of splitEvery(toolCall.arguments, ARGUMENT_PIECE_CHARS)) {
        delta({ type: 'input_json_delta', partial_json: piece });
      }
      stopBlock();
    }
    events.push(
      sseEvent('message_delta', {
        delta: { stop_reason: anthropicStopReason(call), stop_sequence: null },
        usage: { ...anthropicInputUsage(call.usage), output_tokens: call.usage.output },
      }),
      sseEvent('message_stop', {}),
    );
    return events;
  },

  errorBody(status, message) {
    return {
      type: 'error',
      error: { type: anthropicErrorType(status), message },
      request_id: `req_${randomUUID().replaceAll('-', '')}`,
    };
  },

  streamErrorEvent(message) {
    return sseEvent('error', { error: { type: 'overloaded_error', message } });
  },
};

function openAiFinishReason(call: ResolvedCall): string {
  if (call.reply.truncated) return 'length';
  return call.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

function anthropicStopReason(call: ResolvedCall): string {
  if (call.reply.truncated) return 'max_tokens';
  return call.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

/** OpenAI's prompt_tokens include the cached ones. */
function openAiUsage(usage: Required<MockUsage>) {
  const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: usage.output,
    total_tokens: promptTokens + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function anthropicInputUsage(usage: Required<MockUsage>) {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
}

function openAiErrorKind(status: number): [type: string, code: string | null] {
  if (status === 401) return ['invalid_request_error', 'invalid_api_key'];
  if (status === 404) return ['invalid_request_error', 'model_not_found'];
  if (status === 429) return ['requests', 'rate_limit_exceeded'];
  if (status >= 500) return ['server_error', null];
  return ['invalid_request_error', null];
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function defaultErrorMessage(status: number): string {
  const messages: Record<number, string> = {
    401: 'invalid x-api-key',
    403: 'Your API key does not have permission to use the specified resource.',
    404: 'The requested model does not exist.',
    429: 'Rate limit exceeded; please retry later.',
    500: 'Internal server error',
    503: 'Service unavailable',
    529: 'Overloaded',
  };
  return messages[status] ?? `mock error ${status}`;
}

// ---- plumbing ---------------------------------------------------------------------------------

function sseData(payload: object): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function sseEvent(type: string, payload: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

function textPiecesOf(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function splitEvery(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

function estimateUsage(rawBody: string, reply: MockReply): MockUsage {
  const outputChars =
    textPiecesOf(reply.text).join('').length +
    (reply.toolCalls ?? []).reduce(
      (sum, toolCall) => sum + toolCall.name.length + JSON.stringify(toolCall.input ?? {}).length,
      0,
    );
  return {
    input: Math.max(1, Math.ceil(Buffer.byteLength(rawBody) / 4)),
    output: Math.max(1, Math.ceil(outputChars / 4)),
  };
}

function completeUsage(usage: MockUsage): Required<MockUsage> {
  return { ...usage, cacheRead: usage.cacheRead ?? 0, cacheWrite: usage.cacheWrite ?? 0 };
}

function atMost(limit: number | undefined, max: number): number | undefined {
  return limit === undefined ? undefined : Math.min(limit, max);
}

function wantsStreamUsage(body: Record<string, unknown>): boolean {
  const streamOptions = body.stream_options;
  return (
    typeof streamOptions === 'object' &&
    streamOptions !== null &&
    (streamOptions as { include_usage?: unknown }).include_usage === true
  );
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendBody(res, status, body, {});
}

function sendBody(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  const isText = typeof body === 'string';
  const payload = isText ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}
