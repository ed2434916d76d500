// The session's MCP servers from files: the project's `.mcp.json` (started only when trusted)
// and each `--mcp-config` file (trusted: the person named it). A later file wins a name.
import { join, resolve } from 'node:path';
import {
  type McpConfigFile,
  PROJECT_MCP_FILE,
  parseMcpConfigFile,
  readMcpConfigFile,
  serverNamesOf,
} from './config-file.js';
import type { McpServerSpec } from './server-config.js';
import { type McpTrust, type TrustState, untrustedReason } from './trust-store.js';

export interface LoadMcpConfigOptions {
  cwd: string;
  /** `--mcp-config` files, as typed. */
  configFiles: readonly string[];
  trust: McpTrust;
  env?: NodeJS.ProcessEnv;
}

export interface UntrustedFile {
  file: McpConfigFile;
  state: Exclude<TrustState, 'trusted'>;
  names: string[];
}

export interface LoadedMcpConfig {
  /** What to start, each name once. */
  servers: McpServerSpec[];
  /** Project files whose servers are not started. */
  untrusted: UntrustedFile[];
  /** One line per untrusted file, saying how to allow it. */
  warnings: string[];
}

/** @throws ConfigError for a file that cannot be read or does not fit the shape */
export async function loadMcpConfig(options: LoadMcpConfigOptions): Promise<LoadedMcpConfig> {
  const env = options.env ?? process.env;
  const project = await readMcpConfigFile(join(options.cwd, PROJECT_MCP_FILE), PROJECT_MCP_FILE, {
    optional: true,
  });
  const given = await Promise.all(
    options.configFiles.map(async (file) => (await readMcpConfigFile(resolve(file), file))!),
  );
  const byName = new Map<string, McpServerSpec>();
  const untrusted: UntrustedFile[] = [];
  if (project) {
    const state = options.trust.trustOf(project.path);
    if (state === 'trusted') {
      for (const spec of parseMcpConfigFile(project, env)) byName.set(spec.name, spec);
    } else {
      untrusted.push({ file: project, state, names: serverNamesOf(project) });
    }
  }
  for (const file of given) {
    for (const spec of parseMcpConfigFile(file, env)) byName.set(spec.name, spec);
  }
  const warnings = untrusted.map(({ file, state, names }) => {
    const which =
      names.length > 0
        ? ` (${names.map((name) => JSON.stringify(name.slice(0, 64))).join(', ')})`
        : '';
    return `MCP servers of ${file.label}${which} not started: ${untrustedReason(state, file.label)}`;
  });
  return { servers: [...byName.values()], untrusted, warnings };
}
