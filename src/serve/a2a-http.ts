// `warren a2a serve`: the A2A JSON-RPC binding over node:http. The agent card is public (it
// names the security scheme, never a secret); every JSON-RPC call must carry the token.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, AGENT_CARD_PATH, type AgentCard } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  UnauthenticatedUser,
  type User,
  validateVersion,
} from '@a2a-js/sdk/server';
import { servedAgentCard } from './a2a-card.js';
import { ServedAgentExecutor, TRACEPARENT_STATE } from './a2a-executor.js';
import { resumeInterrupted } from './a2a-resume.js';
import { FileTaskStore } from './a2a-task-store.js';
import type { AgentHost } from './agent-host.js';
import { isAuthorized, type ServeAuth } from './bearer-auth.js';
import { closeServer, listenOn, type RunningHttpServer } from './listen.js';
import { readJsonBody } from './request-body.js';

export interface A2aServeOptions {
  host: string;
  port: number;
  auth: ServeAuth;
  version: string;
  /** Where tasks are kept across restarts. */
  taskDir: string;
}

const TOKEN_HOLDER: User = { isAuthenticated: true, userName: 'token-holder' };

export async function serveA2a(
  host: AgentHost,
  options: A2aServeOptions,
): Promise<RunningHttpServer> {
  const store = await FileTaskStore.open(options.taskDir);
  let card: AgentCard | undefined;
  let transport: JsonRpcTransportHandler | undefined;
  let allowedHosts: string[] | undefined;
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, rpcError(null, -32603, 'internal error'));
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!card || !transport) return sendJson(response, 503, rpcError(null, -32603, 'starting'));
    // A page that rebinds its own name to loopback reaches nothing here.
    if (allowedHosts && !allowedHosts.includes(request.headers.host ?? '')) {
      return sendJson(response, 403, rpcError(null, -32600, 'unknown Host'));
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method === 'GET' && path === `/${AGENT_CARD_PATH}`)
      return sendJson(response, 200, card);
    if (request.method !== 'POST' || path !== '/') {
      return sendJson(
        response,
        404,
        rpcError(null, -32601, `A2A is at POST / and GET /${AGENT_CARD_PATH}`),
      );
    }
    if (!isAuthorized(request, options.auth)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      return sendJson(
        response,
        401,
        rpcError(null, -32600, 'unauthorized: send Authorization: Bearer <token>'),
      );
    }
    const body = await readJsonBody(request);
    const id =
      isRecord(body) && (typeof body.id === 'string' || typeof body.id === 'number')
        ? body.id
        : null;
    if (!isRecord(body)) return sendJson(response, 200, rpcError(null, -32700, 'not JSON'));
    const version = request.headers[A2A_VERSION_HEADER.toLowerCase()];
    const context = new ServerCallContext({
      user: options.auth.token === undefined ? new UnauthenticatedUser() : TOKEN_HOLDER,
      requestedVersion: typeof version === 'string' ? version : undefined,
      // W3C trace context, as an HTTP header: the task's run continues the caller's trace.
      state: new Map([[TRACEPARENT_STATE, request.headers.traceparent]]),
    });
    try {
      validateVersion(context.requestedVersion, card, 'JSONRPC');
    } catch (error) {
      const mapped = JsonRpcTransportHandler.mapToJSONRPCError(error);
      return sendJson(response, 200, rpcError(id, mapped.code, mapped.message));
    }
    const answer = await transport.handle(body, context);
    if (!isAsyncIterable(answer)) return sendJson(response, 200, answer);
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    try {
      for await (const event of answer) response.write(`data: ${JSON.stringify(event)}\n\n`);
    } catch (error) {
      const mapped = JsonRpcTransportHandler.mapToJSONRPCError(error);
      response.write(
        `event: error\ndata: ${JSON.stringify(rpcError(id, mapped.code, mapped.message))}\n\n`,
      );
    } finally {
      response.end();
    }
  }

  const { url, allowedHosts: hosts } = await listenOn(http, options.host, options.port);
  allowedHosts = hosts;
  card = servedAgentCard({
    definitions: host.definitions,
    url: `${url}/`,
    version: options.version,
    authenticated: options.auth.token !== undefined,
  });
  // One owner scope, as the store has: every caller holds the one token.
  const buses = new DefaultExecutionEventBusManager(() => 'warren');
  const executor = new ServedAgentExecutor(host);
  transport = new JsonRpcTransportHandler(new DefaultRequestHandler(card, store, executor, buses));
  // What an earlier server was running goes on, in the sessions it left.
  resumeInterrupted(store.interrupted, { store, buses, executor });
  return { url, close: () => closeServer(http) };
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
