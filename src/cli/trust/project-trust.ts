// One trust decision per project: everything its files would make warren run or allow (hooks in
// its settings and definitions, its MCP servers, widening permission settings) is trusted
// together, pinned by the fingerprint of each item, or none of it applies.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import { loadAgentDefinitions } from '../../definitions/load-agent-definitions.js';
import type { McpConfigFile } from '../../mcp/config-file.js';
import { readSettingsFiles, type SettingsFile } from '../../permissions/settings-file.js';
import { readProjectMcpFiles } from '../run/project-mcp-files.js';
import { definitionItems } from './definition-items.js';
import { mcpFileItems } from './mcp-file-items.js';
import {
  projectTrustStorePath,
  readProjectRecord,
  recordProjectTrust,
} from './project-trust-store.js';
import { settingsItems } from './settings-items.js';
import {
  changedParts,
  fingerprintOf,
  type ItemFingerprint,
  itemKey,
  type TrustItem,
} from './trust-item.js';

/**
 * An item's standing. `untrusted`: the project was never trusted. `new`: trusted without this
 * item. `changed`: these parts differ from what was trusted. `withdrawn`: unchanged, but another
 * item changed, and the project is trusted as a whole or not at all.
 */
export type ItemTrust =
  | { state: 'trusted' }
  | { state: 'untrusted' }
  | { state: 'new' }
  | { state: 'changed'; parts: string[] }
  | { state: 'withdrawn' };

export interface ProjectTrust {
  projectDir: string;
  /** Whether the project's items apply: trusted by a record, by `--trust-project`, or none to trust. */
  trusted: boolean;
  /** `--trust-project` was given: trusted for this run without a record. */
  byFlag: boolean;
  items: readonly { item: TrustItem; trust: ItemTrust }[];
}

export interface ProjectSources {
  projectDir: string;
  /** The settings files read (only the project's own is looked at). */
  settingsFiles: readonly SettingsFile[];
  /** The definitions in use (a project file overridden by a higher one is not). */
  definitions: Iterable<AgentDefinition>;
  /** The project's `.mcp.json` files, nearest first. */
  mcpFiles: readonly McpConfigFile[];
  homeDir?: string;
}

/** Every item the project's files bring, in a stable order: settings, definitions, servers. */
export function collectTrustItems(sources: ProjectSources): TrustItem[] {
  const { projectDir } = sources;
  // Run from the home folder, the "project" files are the person's own.
  if (resolve(projectDir) === resolve(sources.homeDir ?? homedir())) return [];
  return [
    ...sources.settingsFiles
      .filter((file) => file.scope === 'project')
      .flatMap((file) => settingsItems(file, projectDir)),
    ...[...sources.definitions].flatMap((definition) => definitionItems(definition, projectDir)),
    ...sources.mcpFiles.flatMap((file) => mcpFileItems(file, projectDir)),
  ];
}

/**
 * Compares the items with the person's record of the project.
 * @throws ConfigError when the record cannot be read
 */
export function decideProjectTrust(
  projectDir: string,
  items: readonly TrustItem[],
  options: { trustProject?: boolean; storePath?: string } = {},
): ProjectTrust {
  if (options.trustProject) {
    return {
      projectDir,
      trusted: true,
      byFlag: true,
      items: items.map((item) => ({ item, trust: { state: 'trusted' } })),
    };
  }
  const record =
    items.length === 0
      ? undefined
      : readProjectRecord(options.storePath ?? projectTrustStorePath(), projectDir);
  const recorded: Record<string, ItemFingerprint> | undefined =
    record && typeof record.items === 'object' && record.items !== null ? record.items : undefined;
  const compared = items.map((item) => ({ item, trust: compare(item, recorded) }));
  const trusted = compared.every(({ trust }) => trust.state === 'trusted');
  return {
    projectDir,
    trusted,
    byFlag: false,
    items: trusted
      ? compared
      : compared.map(({ item, trust }) => ({
          item,
          trust: trust.state === 'trusted' ? { state: 'withdrawn' } : trust,
        })),
  };
}

function compare(
  item: TrustItem,
  recorded: Record<string, ItemFingerprint> | undefined,
): ItemTrust {
  if (!recorded) return { state: 'untrusted' };
  const then = recorded[itemKey(item)];
  if (!then) return { state: 'new' };
  const parts = changedParts(then, fingerprintOf(item));
  return parts.length === 0 ? { state: 'trusted' } : { state: 'changed', parts };
}

/**
 * The project's trust as a run from `cwd` would decide it, each item with its standing: for
 * listings (`warren agents`, `warren mcp`) that show whether something would run.
 * @throws ConfigError for a settings file, `.mcp.json` or trust record that cannot be read
 */
export async function projectTrust(
  cwd: string,
  options: {
    trustProject?: boolean;
    agentsDirs?: readonly string[];
    homeDir?: string;
    storePath?: string;
  } = {},
): Promise<ProjectTrust> {
  const projectDir = resolve(cwd);
  const homeDir = options.homeDir ?? homedir();
  const [settingsFiles, agents, mcpFiles] = await Promise.all([
    readSettingsFiles({ projectDir }),
    loadAgentDefinitions({ cwd: projectDir, homeDir, agentsDirs: options.agentsDirs }),
    readProjectMcpFiles(projectDir),
  ]);
  const items = collectTrustItems({
    projectDir,
    settingsFiles,
    definitions: agents.definitions.values(),
    mcpFiles,
    homeDir,
  });
  return decideProjectTrust(projectDir, items, options);
}

/** Records every item of the project as trusted at what it is now. */
export function recordProjectTrustOf(
  trust: ProjectTrust,
  storePath = projectTrustStorePath(),
): void {
  recordProjectTrust(
    storePath,
    trust.projectDir,
    Object.fromEntries(trust.items.map(({ item }) => [itemKey(item), fingerprintOf(item)])),
  );
}
