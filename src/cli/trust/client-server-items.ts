// The MCP servers an ACP client hands a session: project trust items like `.mcp.json`'s (an
// editor passes on what a project's own settings name), checked as a file's servers are.
import type { ClientServerConfig } from '../../acp/client-mcp-servers.js';
import {
  type McpServerConfig,
  parseServerConfig,
  serverConfigOf,
} from '../../mcp/server-config.js';
import { mcpServerItem } from './mcp-server-item.js';
import type { TrustItem } from './trust-item.js';

export interface ClientMcpServers {
  /** Where they came from, as a trust item's file and in messages: `ACP client session/new`. */
  where: string;
  servers: Readonly<Record<string, ClientServerConfig>>;
}

export function clientServerItems(
  client: ClientMcpServers | undefined,
  projectDir: string,
): TrustItem[] {
  if (!client) return [];
  return Object.entries(client.servers).map(([name, config]) =>
    mcpServerItem({ file: client.where, field: `mcpServers.${name}`, name, config, projectDir }),
  );
}

/**
 * The servers checked field by field (no `${VAR}` expansion: the client sent values).
 * @throws ConfigError naming the server and field
 */
export function checkedClientServers(
  client: ClientMcpServers | undefined,
): Record<string, McpServerConfig> {
  if (!client) return {};
  const location = {
    at: (path: readonly (string | number)[]) => `${client.where} mcpServers.${path.join('.')}`,
  };
  return Object.fromEntries(
    Object.entries(client.servers).map(([name, config]) => [
      name,
      serverConfigOf(parseServerConfig(name, config, { location })),
    ]),
  );
}

/** The line said when the project is not trusted and so the client's servers were not started. */
export function untrustedClientServers(client: ClientMcpServers | undefined): string[] {
  const names = Object.keys(client?.servers ?? {});
  if (names.length === 0) return [];
  return [
    `MCP servers from ${client?.where} not started (${names.join(', ')}): the project is not trusted; trust it when asked, or run \`warren trust\` in it`,
  ];
}
