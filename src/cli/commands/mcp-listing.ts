// What `warren mcp` shows: each server with its transport, where it is configured, its status
// and tool count; or one server's tools. Never a secret: no env values, headers or arguments.
import { basename } from 'node:path';
import type { McpConnection } from '../../mcp/mcp-connection.js';
import type { McpTool } from '../../mcp/mcp-tool.js';
import type { McpTransportName, ResolvedServerConfig } from '../../mcp/server-config.js';
import { textTable } from '../text-table.js';

export type McpListingStatus = 'connected' | 'failed' | 'untrusted';

export interface McpListingItem {
  name: string;
  transport: McpTransportName | null;
  /** The program of a stdio server, the address of a remote one (without query or user). */
  target: string | null;
  /** The file that configures it. */
  source: string;
  status: McpListingStatus;
  tools: number | null;
  /** Why it failed, or how to trust it. */
  error?: string;
}

export interface McpListing {
  servers: McpListingItem[];
}

export function listingItem(connection: McpConnection): McpListingItem {
  const { config } = connection.spec;
  const connected = connection.status === 'connected';
  return {
    name: connection.name,
    transport: config.transport,
    target: targetOf(config),
    source: connection.spec.source,
    status: connected ? 'connected' : 'failed',
    tools: connected ? connection.tools.length : null,
    ...(connected ? {} : { error: connection.failure ?? 'it did not start' }),
  };
}

export function formatMcpListing(listing: McpListing): string {
  if (listing.servers.length === 0) {
    return 'No MCP servers configured (a project .mcp.json, or --mcp-config <file>).\n';
  }
  const rows = listing.servers.map((server) => [
    server.name,
    server.transport ?? '-',
    server.status,
    server.tools === null ? '-' : String(server.tools),
    server.source,
    server.target ?? '',
  ]);
  const lines = textTable([['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'SOURCE', 'TARGET'], ...rows]);
  const notes = listing.servers
    .filter((server) => server.error)
    .map((server) => `  ${server.name}: ${server.error}`);
  return `${[...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n')}\n`;
}

export interface McpToolsListing {
  server: string;
  tools: Array<{
    name: string;
    /** The tool's own name on the server. */
    server_tool: string;
    read_only: boolean;
    description: string;
    input_schema: unknown;
  }>;
}

export function toolsListing(server: string, tools: readonly McpTool[]): McpToolsListing {
  return {
    server,
    tools: tools.map((tool) => ({
      name: tool.name,
      server_tool: tool.mcpToolName,
      read_only: tool.isReadOnly === true,
      description: tool.description,
      input_schema: tool.jsonSchema,
    })),
  };
}

export function formatToolsListing(listing: McpToolsListing): string {
  if (listing.tools.length === 0) return `The MCP server "${listing.server}" has no tools.\n`;
  const rows = listing.tools.map((tool) => [
    tool.name,
    tool.read_only ? 'read-only' : 'may write',
    (tool.description.split('\n', 1)[0] ?? '').slice(0, 100),
  ]);
  return `${textTable([['TOOL', 'ACCESS', 'DESCRIPTION'], ...rows]).join('\n')}\n`;
}

function targetOf(config: ResolvedServerConfig): string | null {
  switch (config.transport) {
    case 'stdio':
      return basename(config.command);
    case 'http':
    case 'sse': {
      const url = new URL(config.url);
      return `${url.protocol}//${url.host}${url.pathname}`;
    }
    case 'in-process':
      return null;
  }
}
