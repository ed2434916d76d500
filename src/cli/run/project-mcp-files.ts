// The project's `.mcp.json` files as a run reads them, before any trust is decided (reading is
// cheap and always done; what they would start is a trust item, src/cli/trust/).
import { join, relative } from 'node:path';
import { type McpConfigFile, PROJECT_MCP_FILE, readMcpConfigFile } from '../../mcp/config-file.js';
import { projectFolders } from '../../tools/project-folders.js';

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
