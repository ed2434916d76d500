// The project's trust for one run: recorded, or given by `--trust-project`, or asked of a person
// (the terminal UI; a yes is recorded as `warren trust` records it); otherwise each item left
// out is one line on stderr. `appliedRunTrust` is what a run takes of the project once decided.
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import type { McpConfigFile } from '../../mcp/config-file.js';
import type { McpServerConfig } from '../../mcp/server-config.js';
import type { McpTrust } from '../../mcp/trust-store.js';
import type { Settings, SettingsFile } from '../../permissions/settings-file.js';
import type { CliIo } from '../print/print-mode.js';
import { projectMcpTrust, trustedDefinitions, trustedSettings } from './apply-project-trust.js';
import {
  type ClientMcpServers,
  checkedClientServers,
  clientServerItems,
  untrustedClientServers,
} from './client-server-items.js';
import { pinnedHookCheck } from './pinned-hook-files.js';
import {
  collectTrustItems,
  decideProjectTrust,
  type ProjectTrust,
  recordProjectTrustOf,
} from './project-trust.js';
import type { TrustItem } from './trust-item.js';
import { untrustedLines } from './trust-report.js';

export async function decideRunTrust(
  items: readonly TrustItem[],
  params: {
    cwd: string;
    trustProject: boolean;
    io: Pick<CliIo, 'stderr'>;
    ask: ((trust: ProjectTrust) => Promise<boolean>) | undefined;
  },
): Promise<ProjectTrust> {
  const trust = decideProjectTrust(params.cwd, items, { trustProject: params.trustProject });
  if (trust.trusted) return trust;
  if (params.ask) {
    if (!(await params.ask(trust))) return trust;
    recordProjectTrustOf(trust);
    return { ...trust, trusted: true };
  }
  for (const line of untrustedLines(trust)) params.io.stderr(line);
  return trust;
}

/** What a run reads of the project before its trust is decided, and how to decide it. */
export interface RunTrustSources {
  cwd: string;
  homeDir: string;
  settingsFiles: readonly SettingsFile[];
  definitions: ReadonlyMap<string, AgentDefinition>;
  mcpFiles: readonly McpConfigFile[];
  clientMcpServers: ClientMcpServers | undefined;
  trustProject: boolean;
  io: Pick<CliIo, 'stderr'>;
  ask: ((trust: ProjectTrust) => Promise<boolean>) | undefined;
}

/** What a run takes of the project's files once its trust is decided. */
export interface AppliedRunTrust {
  trusted: boolean;
  settings: Settings;
  definitions: Map<string, AgentDefinition>;
  /** The gate `.mcp.json` goes through. */
  mcpTrust: McpTrust;
  hookCommandCheck: ((command: string) => string | undefined) | undefined;
  /**
   * The client's servers, checked when asked (a run that replays MCP never asks), when the
   * project is trusted.
   * @throws ConfigError naming the server and field
   */
  clientServers(): Record<string, McpServerConfig>;
  /** Said once the run has begun: the client's servers left out of an untrusted project. */
  clientWarnings: string[];
}

/**
 * Decides the project's trust for a run and applies it: what the project's files would run or
 * widen applies only once the project is trusted; the person's own files and flags always apply.
 */
export async function appliedRunTrust(sources: RunTrustSources): Promise<AppliedRunTrust> {
  const { cwd, clientMcpServers } = sources;
  const trust = await decideRunTrust(
    collectTrustItems({
      projectDir: cwd,
      homeDir: sources.homeDir,
      settingsFiles: sources.settingsFiles,
      definitions: sources.definitions.values(),
      mcpFiles: sources.mcpFiles,
    }).concat(clientServerItems(clientMcpServers, cwd)),
    { cwd, trustProject: sources.trustProject, io: sources.io, ask: sources.ask },
  );
  return {
    trusted: trust.trusted,
    settings: trustedSettings(trust, sources.settingsFiles),
    definitions: trustedDefinitions(trust, sources.definitions),
    mcpTrust: projectMcpTrust(trust),
    hookCommandCheck: pinnedHookCheck(trust),
    clientServers: () => (trust.trusted ? checkedClientServers(clientMcpServers) : {}),
    clientWarnings: trust.trusted ? [] : untrustedClientServers(clientMcpServers),
  };
}
