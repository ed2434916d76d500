// Test fixture: the real MCP servers from npm (devDependencies) as warren starts them over stdio,
// and server-everything served over Streamable HTTP and legacy SSE on loopback only.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A stdio server config, in the shape `mcpServers` and `.mcp.json` take. */
export interface StdioServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const require = createRequire(import.meta.url);
const serverScript = (name: string) =>
  require.resolve(`@modelcontextprotocol/server-${name}/dist/index.js`);

const EVERYTHING_SCRIPT = serverScript('everything');

/** server-everything over stdio: echo, get-sum, get-structured-content, trigger-long-running-operation, … */
export function everythingServer(): StdioServer {
  return { command: process.execPath, args: [EVERYTHING_SCRIPT, 'stdio'] };
}

/** server-memory over stdio, its knowledge graph in `file`. */
export function memoryServer(file: string): StdioServer {
  return {
    command: process.execPath,
    args: [serverScript('memory')],
    env: { MEMORY_FILE_PATH: file },
  };
}

/** server-filesystem over stdio, allowed into `dir` only. */
export function filesystemServer(dir: string): StdioServer {
  return { command: process.execPath, args: [serverScript('filesystem'), dir] };
}

export interface LoopbackServer {
  url: string;
  /** Requests seen, with their headers: what a client sent. */
  readonly requests: IncomingMessage[];
  close(): Promise<void>;
}

type EverythingModule = {
  createServer(): {
    server: { connect(transport: unknown): Promise<void>; close(): Promise<void> };
    cleanup(sessionId?: string): void;
  };
};

/** A server-everything per session, closed with all the transports when the loopback server closes. */
class EverythingSessions<Transport extends { sessionId?: string; close(): Promise<void> }> {
  readonly byId = new Map<string, Transport>();
  readonly #cleanups: Array<() => void> = [];

  /** Serves a new server-everything over `transport`. */
  async connect(transport: Transport): Promise<void> {
    const module = (await import(
      require.resolve('@modelcontextprotocol/server-everything/dist/server/index.js')
    )) as EverythingModule;
    const { server, cleanup } = module.createServer();
    this.#cleanups.push(() => {
      cleanup(transport.sessionId);
      void server.close();
    });
    await server.connect(transport);
  }

  async close(): Promise<void> {
    for (const transport of this.byId.values()) await transport.close();
    for (const cleanup of this.#cleanups) cleanup();
  }
}

/** server-everything over Streamable HTTP at `http://127.0.0.1:<port>/mcp`, one server per session. */
export async function serveEverythingHttp(): Promise<LoopbackServer> {
  const sessions = new EverythingSessions<StreamableHTTPServerTransport>();
  const requests: IncomingMessage[] = [];
  const http = createHttpServer(async (req, res) => {
    requests.push(req);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.byId.get(id) : undefined;
    if (!transport) {
      if (id !== undefined) {
        res.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.byId.set(sessionId, created);
        },
      });
      await sessions.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  return listen(http, '/mcp', requests, () => sessions.close());
}

/** server-everything over the legacy HTTP+SSE transport at `http://127.0.0.1:<port>/sse`. */
export async function serveEverythingSse(): Promise<LoopbackServer> {
  const sessions = new EverythingSessions<SSEServerTransport>();
  const requests: IncomingMessage[] = [];
  const http = createHttpServer(async (req, res) => {
    requests.push(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/message', res);
      sessions.byId.set(transport.sessionId, transport);
      await sessions.connect(transport);
      return;
    }
    const transport = sessions.byId.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/message' && transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
    // A Streamable HTTP client's first POST lands here: refused as an old server refuses it.
    res.writeHead(405).end();
  });
  return listen(http, '/sse', requests, () => sessions.close());
}

async function listen(
  http: Server,
  path: string,
  requests: IncomingMessage[],
  closeSessions: () => Promise<void>,
): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    async close() {
      await closeSessions();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
