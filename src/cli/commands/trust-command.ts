// `warren trust [<file>]`: shows everything the project's files would make warren run or allow
// (hooks, MCP servers, widening permission settings: every field as written, the scripts they
// run pinned by hash), then records the project as trusted at exactly that. A change to any of
// it withdraws the trust. `<file>` (a project file, kept for older habits) trusts its project.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { parseMcpConfigFile, readMcpConfigFile } from '../../mcp/config-file.js';
import { recordTrust, trustStorePath } from '../../mcp/trust-store.js';
import { cwdFlag } from '../cwd-flag.js';
import type { TrustArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { readProjectMcpFiles } from '../run/project-mcp-files.js';
import { terminalSafe } from '../terminal-text.js';
import { type ProjectTrust, projectTrust, recordProjectTrustOf } from '../trust/project-trust.js';
import { projectTrustStorePath } from '../trust/project-trust-store.js';
import { trustListing } from '../trust/trust-report.js';

export async function runTrustCommand(args: TrustArgs, io: CliIo): Promise<number> {
  const cwd = cwdFlag(args);
  if (args.file !== undefined && !statSync(resolve(cwd, args.file), { throwIfNoEntry: false })) {
    throw new ConfigError(
      `trust ${args.file}`,
      'no such file',
      'run `warren trust` in the project: it trusts the whole project',
    );
  }
  // Checked as a run would (not expanded): a file that cannot be used is fixed before it is trusted.
  for (const mcpFile of await readProjectMcpFiles(cwd)) parseMcpConfigFile(mcpFile, undefined);
  const trust = await projectTrust(cwd);
  io.stdout(trustListing(trust));
  if (trust.items.length === 0) return 0;
  const store = projectTrustStorePath();
  recordProjectTrustOf(trust, store);
  await recordFileTrust(trust);
  io.stdout(
    `Trusted ${trust.items.length} item(s) of ${terminalSafe(trust.projectDir)} (recorded in ${store}).\nA change to any of them, or to a script they run, withdraws the trust: run warren trust again after a change.\n`,
  );
  return 0;
}

/**
 * The files that start MCP servers are also pinned in the per-file record the library's gate
 * reads (query() with definitions loaded from a project), so both gates agree.
 */
async function recordFileTrust(trust: ProjectTrust): Promise<void> {
  const files = new Set(
    trust.items.filter(({ item }) => item.kind === 'mcp-server').map(({ item }) => item.file),
  );
  for (const file of files) {
    const read = await readMcpConfigFile(resolve(trust.projectDir, file), file, { optional: true });
    if (read) await recordTrust(trustStorePath(), read.path, read.sha256);
  }
}
