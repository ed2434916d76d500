// `warren trust [<file>]`: records a project file (its `.mcp.json`, or an agent definition with
// inline MCP servers) as trusted at its current content, after showing what it will start.
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { loadAgentFile } from '../agents/definitions/load-agent-file.js';
import { ConfigError } from '../core/config-error.js';
import { PROJECT_MCP_FILE, parseMcpConfigFile, readMcpConfigFile } from '../mcp/config-file.js';
import { recordTrust, trustStorePath } from '../mcp/trust-store.js';
import { projectFolders } from '../tools/project-folders.js';
import type { TrustArgs } from './parsed-args.js';
import type { CliIo } from './print-mode.js';

export async function runTrustCommand(args: TrustArgs, io: CliIo): Promise<number> {
  const cwd = resolve(args.cwd ?? process.cwd());
  const label = args.file ?? nearestProjectFile(cwd);
  const file = (await readMcpConfigFile(resolve(cwd, label), label))!;
  const servers = file.path.endsWith('.md')
    ? await definitionServers(file.path, label)
    : // Checked as a run would, but not expanded: what is shown is what the file says.
      parseMcpConfigFile(file, undefined).map(({ name, config }) => `${name}: ${describe(config)}`);
  const store = trustStorePath();
  await recordTrust(store, file.path, file.sha256);
  const list = servers.map((server) => `  ${server}`).join('\n') || '  (none)';
  io.stdout(
    `Trusted ${label} (sha256 ${file.sha256.slice(0, 12)}…) in ${store}.\nThese MCP servers may start now:\n${list}\nEditing the file withdraws the trust; run warren trust again after a change.\n`,
  );
  return 0;
}

/** The `.mcp.json` a run reads first: the working folder's, else the nearest above it in the repository. */
function nearestProjectFile(cwd: string): string {
  const folders = projectFolders(cwd);
  const found = folders.find((dir) => existsSync(join(dir, PROJECT_MCP_FILE)));
  return found === undefined
    ? PROJECT_MCP_FILE
    : relative(folders[0]!, join(found, PROJECT_MCP_FILE));
}

/** The inline servers of a definition file, as written. */
async function definitionServers(path: string, label: string): Promise<string[]> {
  const entry = await loadAgentFile({ path, kind: 'project' });
  if (!entry.definition) {
    throw new ConfigError(
      label,
      `cannot be used: ${entry.error?.message ?? 'not an agent definition'}`,
      'fix the file first',
    );
  }
  return (entry.definition.mcpServers ?? []).flatMap((server) =>
    typeof server === 'string' ? [] : [describeEntry(server)],
  );
}

function describeEntry(entry: Record<string, unknown>): string {
  if (typeof entry.name === 'string') {
    const { name, ...config } = entry;
    return `${name}: ${describe(config)}`;
  }
  const [name, config] = Object.entries(entry)[0] ?? ['?', {}];
  return `${name}: ${describe(config)}`;
}

/** A server as its file writes it: the command line or the address, `${VAR}`s unexpanded. */
function describe(config: unknown): string {
  const fields = (typeof config === 'object' && config !== null ? config : {}) as Record<
    string,
    unknown
  >;
  if ('command' in fields) {
    const args = Array.isArray(fields.args) ? fields.args.map(String) : [];
    return `runs ${[String(fields.command), ...args].join(' ')}`;
  }
  return `connects to ${String(fields.url ?? '?')}`;
}
