// The session's MCP servers from files: the project's `.mcp.json` files (the working folder's and
// those above it up to the repository root; started only when trusted) and each `--mcp-config`
// file (trusted: the person named it). A nearer project file wins a name; a --mcp-config file wins
// over them all, the later one over the earlier.
import { join, relative, resolve } from 'node:path';
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
  /**
   * The folders whose `.mcp.json` is read, nearest first (tools/project-folders.ts: `cwd` up to
   * the repository root). Default: `cwd` alone.
   */
  projectDirs?: readonly string[];
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
  const dirs = options.projectDirs ?? [options.cwd];
  const projects = await Promise.all(
    dirs.map((dir) => {
      const path = join(dir, PROJECT_MCP_FILE);
      // Named as `warren trust` takes it from the working folder: `.mcp.json`, `../.mcp.json`.
      const label = relative(dirs[0] ?? resolve(options.cwd), path);
      return readMcpConfigFile(path, label, { optional: true });
    }),
  );
  const given = await Promise.all(
    options.configFiles.map(async (file) => (await readMcpConfigFile(resolve(file), file))!),
  );
  const byName = new Map<string, McpServerSpec>();
  const untrusted: UntrustedFile[] = [];
  // The repository root's first, so a nearer file's server of the same name replaces it.
  for (const project of [...projects].reverse()) {
    if (!project) continue;
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
