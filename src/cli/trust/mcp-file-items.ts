// The servers of the project's `.mcp.json` as trust items, read as written (no `${VAR}` expanded:
// what is shown and pinned is what the repository says). A file that does not parse is one item,
// its whole text: trusting it is trusting whatever it turns out to say.
import { join, relative } from 'node:path';
import { type McpConfigFile, PROJECT_MCP_FILE, readMcpConfigFile } from '../../mcp/config-file.js';
import { projectFolders } from '../../tools/project-folders.js';
import { isRecord } from './hook-items.js';
import { mcpServerItem } from './mcp-server-item.js';
import type { TrustItem } from './trust-item.js';

/**
 * The project's server files a run reads: the working folder's `.mcp.json` and each one above it
 * up to the repository's top (labelled as `warren trust` names them: `.mcp.json`, `../.mcp.json`).
 */
export async function readProjectMcpFiles(projectDir: string): Promise<McpConfigFile[]> {
  const folders = projectFolders(projectDir);
  const files = await Promise.all(
    folders.map((dir) => {
      const path = join(dir, PROJECT_MCP_FILE);
      return readMcpConfigFile(path, relative(folders[0] ?? projectDir, path), { optional: true });
    }),
  );
  return files.filter((file) => file !== undefined);
}

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
