// `warren/mcp`: the shapes of the `mcpServers` option and a check for tools an MCP server gave.

export { isMcpTool, type McpTool } from './mcp/mcp-tool.js';
export type {
  McpInProcessServerConfig,
  McpRemoteServerConfig,
  McpServerConfig,
  McpServerInput,
  McpServerObject,
  McpStdioServerConfig,
} from './mcp/server-config.js';
