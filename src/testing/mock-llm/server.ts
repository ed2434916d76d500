// A loopback HTTP server that answers like the OpenAI Chat Completions and Anthropic Messages
// APIs, byte for byte where clients look, so tests drive the real AI SDK providers over a socket.
// This file owns routing, the scripted replies (a FIFO queue, or a handler), the request record
// and the pacing and breaking of streams; each API's bytes are in its *-wire.ts.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { anthropicWire } from './anthropic-wire.js';
import type { MockReply, MockUsage } from './mock-reply.js';
import { openAiChatWire } from './openai-wire.js';
import type { ResolvedCall, WireFormat } from './wire-format.js';

export type { MockReply, MockToolCall, MockUsage } from './mock-reply.js';

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
  /** Bytes of the response body written so far; a stream waits for its reader as it goes. */
  responseBytes: number;
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
      responseBytes: 0,
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
      request.responseBytes = sendBody(res, status, body, { ...wire.idHeader(), ...reply.headers });
      return;
    }

    const body = request.body as Record<string, unknown>;
    const call: ResolvedCall = {
      reply,
      model: typeof body.model === 'string' ? body.model : 'mock-model',
      textPieces: repeated(textPiecesOf(reply.text), reply.repeat ?? 1),
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
      const headers = { ...wire.idHeader(), ...reply.headers };
      request.responseBytes = sendBody(res, status, wire.json(call), headers);
      return;
    }
    await streamEvents(res, call, wire, signal, request);
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
  request: RecordedRequest,
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
    if (event === undefined) continue;
    request.responseBytes += Buffer.byteLength(event);
    // Wait for a slow reader rather than hold a huge reply in memory.
    if (!res.write(event)) await once(res, 'drain', { signal }).catch(() => {});
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

function textPiecesOf(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/** The pieces `times` over; the same strings, so a long reply holds each piece once. */
function repeated(pieces: string[], times: number): string[] {
  if (times === 1) return pieces;
  return Array.from(
    { length: pieces.length * times },
    (_, index) => pieces[index % pieces.length]!,
  );
}

function estimateUsage(rawBody: string, reply: MockReply): MockUsage {
  const outputChars =
    textPiecesOf(reply.text).reduce((sum, piece) => sum + piece.length, 0) * (reply.repeat ?? 1) +
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
): number {
  const isText = typeof body === 'string';
  const payload = isText ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
  return Buffer.byteLength(payload);
}
