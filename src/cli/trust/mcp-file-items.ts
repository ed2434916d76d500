// The servers of the project's `.mcp.json` as trust items, read as written (no `${VAR}` expanded:
// what is shown and pinned is what the repository says). A file that does not parse is one item,
// its whole text: trusting it is trusting whatever it turns out to say.
import type { McpConfigFile } from '../../mcp/config-file.js';
import { isRecord } from './hook-items.js';
import { mcpServerItem } from './mcp-server-item.js';
import type { TrustItem } from './trust-item.js';

export function mcpFileItems(file: McpConfigFile, projectDir: string): TrustItem[] {
  let servers: unknown;
  try {
    servers = (JSON.parse(file.text) as { mcpServers?: unknown } | null)?.mcpServers;
  } catch {
    servers = undefined;
  }
  if (!isRecord(servers)) {
    return [
      {
        kind: 'mcp-server',
        file: file.label,
        field: '(whole file)',
        action: 'start the MCP servers of a file warren cannot read as {"mcpServers": {…}}',
        fields: { text: file.text },
        files: {},
      },
    ];
  }
  return Object.entries(servers).map(([name, config]) =>
    mcpServerItem({
      file: file.label,
      field: `mcpServers.${name}`,
      name,
      config,
      projectDir,
    }),
  );
}
