// One SDK transport per server config: a process-group stdio pipe, Streamable HTTP, legacy SSE,
// or an in-memory pair linked to an in-process server.
import { resolve } from 'node:path';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ResolvedServerConfig } from './server-config.js';
import { serverEnvironment } from './server-environment.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

export type RemoteTransport = 'http' | 'sse';

/**
 * A transport for the config, not yet started (the client starts it). A stdio server gets the
 * SDK's short list of safe variables (PATH, HOME, …), the certificate and proxy variables, plus
 * its own `env`, not warren's whole environment: API keys stay out of servers nobody gave them to.
 */
export async function openTransport(
  config: ResolvedServerConfig,
  options: { cwd: string; remote?: RemoteTransport },
): Promise<Transport> {
  switch (config.transport) {
    case 'stdio':
      return new ProcessGroupStdioTransport({
        command: config.command,
        args: config.args,
        env: serverEnvironment(config.env),
        cwd: resolve(options.cwd, config.cwd ?? '.'),
      });
    case 'http':
    case 'sse': {
      const url = new URL(config.url);
      const requestInit = { headers: config.headers };
      return (options.remote ?? config.transport) === 'sse'
        ? new SSEClientTransport(url, { requestInit })
        : new StreamableHTTPClientTransport(url, { requestInit });
    }
    case 'in-process': {
      const [client, server] = InMemoryTransport.createLinkedPair();
      await config.instance.connect(server);
      return client;
    }
  }
}
