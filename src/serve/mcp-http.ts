// `warren mcp serve --http`: MCP over Streamable HTTP, one MCP session (and server) per client,
// every request authenticated first. A session's runs are cancelled when it is closed.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AgentHost } from './agent-host.js';
import { isAuthorized, type ServeAuth } from './bearer-auth.js';
import { closeServer, listenOn, type RunningHttpServer } from './listen.js';
import { mcpAgentServer } from './mcp-agent-server.js';
import { readJsonBody } from './request-body.js';

/** The path MCP clients post to: `http://127.0.0.1:<port>/mcp`. */
export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  host: string;
  port: number;
  auth: ServeAuth;
  version: string;
}

export async function serveMcpHttp(
  agentHost: AgentHost,
  options: McpHttpOptions,
): Promise<RunningHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, 'internal error');
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return reply(response, 404, `not found: MCP is at ${MCP_PATH}`);
    if (!isAuthorized(request, options.auth)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      return reply(response, 401, 'unauthorized: send Authorization: Bearer <token>');
    }
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(request, response);
    if (request.method !== 'POST') return reply(response, 400, 'no such MCP session');
    const body = await readJsonBody(request);
    if (!isInitializeRequest(body)) return reply(response, 400, 'no such MCP session');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await mcpAgentServer(agentHost, options.version).connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const listening = await listenOn(http, options.host, options.port);
  allowedHosts = listening.allowedHosts;
  return {
    url: listening.url,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await closeServer(http);
    },
  };
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
