// The MCP servers an ACP client hands a session (`session/new`, `session/load`) in the shape of
// `.mcp.json`, so they are checked, trusted and started exactly as a project's servers are.
import type { McpServer } from '@agentclientprotocol/sdk';
import { ConfigError } from '../core/config-error.js';
import type { McpRemoteServerConfig, McpStdioServerConfig } from '../mcp/server-config.js';

export type ClientServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

/** @throws ConfigError for two servers of one name */
export function clientMcpServers(
  servers: readonly McpServer[],
): Record<string, ClientServerConfig> {
  const configs: Record<string, ClientServerConfig> = {};
  servers.forEach((server, index) => {
    if (Object.hasOwn(configs, server.name)) {
      throw new ConfigError(
        `mcpServers[${index}].name`,
        `a second server is named "${server.name}"`,
        'give each server its own name',
      );
    }
    configs[server.name] =
      'command' in server
        ? {
            command: server.command,
            args: [...server.args],
            env: Object.fromEntries(server.env.map(({ name, value }) => [name, value])),
          }
        : {
            type: server.type,
            url: server.url,
            headers: Object.fromEntries(server.headers.map(({ name, value }) => [name, value])),
          };
  });
  return configs;
}
