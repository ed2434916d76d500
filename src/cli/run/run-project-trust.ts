// The project's trust for one run, with the trust checks (src/cli/trust/) loaded only when the
// project brings something they would look at: a project settings file, a project agent
// definition, a `.mcp.json` or a client's MCP servers. With none of those there is no trust
// item, and the run takes every file as it is, exactly as the checks would decide.
import { resolve } from 'node:path';
import { mergeSettings } from '../../permissions/settings-file.js';
import type { AppliedRunTrust, RunTrustSources } from '../trust/run-trust.js';

export type { AppliedRunTrust, RunTrustSources } from '../trust/run-trust.js';

export async function runProjectTrust(sources: RunTrustSources): Promise<AppliedRunTrust> {
  if (mayHaveTrustItems(sources)) {
    const { appliedRunTrust } = await import('../trust/run-trust.js');
    return appliedRunTrust(sources);
  }
  return {
    trusted: true,
    settings: mergeSettings(sources.settingsFiles),
    definitions: new Map(sources.definitions),
    mcpTrust: { trustOf: () => 'trusted' },
    hookCommandCheck: undefined,
    clientServers: () => ({}),
    clientWarnings: [],
  };
}

/**
 * Whether the project may bring a trust item: a wide net on what is already read (every item
 * comes from one of these), so a check that would apply is never skipped. A client's servers
 * are items even in the home folder.
 */
function mayHaveTrustItems(sources: RunTrustSources): boolean {
  if (sources.clientMcpServers !== undefined) return true;
  // Run from the home folder, the "project" files are the person's own: nothing to trust.
  if (resolve(sources.cwd) === resolve(sources.homeDir)) return false;
  return (
    sources.mcpFiles.length > 0 ||
    sources.settingsFiles.some((file) => file.scope === 'project') ||
    [...sources.definitions.values()].some((definition) => definition.source.kind === 'project')
  );
}
