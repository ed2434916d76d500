// `warren mcp [list | tools <server>] [--json]`: starts the configured servers the way a run
// would (trusted ones only, all at once), reports what they are, and stops them again.
import { ConfigError } from '../../core/config-error.js';
import { loadMcpConfig } from '../../mcp/load-mcp-config.js';
import { McpConnection } from '../../mcp/mcp-connection.js';
import { mcpTimeoutsFromEnv } from '../../mcp/mcp-servers.js';
import { mcpTools } from '../../mcp/mcp-tool.js';
import { untrustedReason } from '../../mcp/trust-store.js';
import { projectFolders } from '../../tools/project-folders.js';
import { cwdFlag } from '../cwd-flag.js';
import type { McpArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { projectMcpTrust } from '../trust/apply-project-trust.js';
import { projectTrust } from '../trust/project-trust.js';
import {
  formatMcpListing,
  formatToolsListing,
  listingItem,
  type McpListing,
  toolsListing,
} from './mcp-listing.js';

/** Exit code 1 when a server failed to start, as `warren agents` does for a broken file. */
export async function runMcpCommand(args: McpArgs, io: CliIo): Promise<number> {
  const cwd = cwdFlag(args);
  const config = await loadMcpConfig({
    cwd,
    projectDirs: projectFolders(cwd),
    configFiles: args.mcpConfigs,
    // The project's one trust decision, as a run makes it.
    trust: projectMcpTrust(await projectTrust(cwd, { trustProject: args.trustProject })),
  });
  const timeouts = mcpTimeoutsFromEnv();
  const wanted =
    args.action === 'tools'
      ? config.servers.filter((server) => server.name === args.server)
      : config.servers;
  if (args.action === 'tools' && wanted.length === 0) {
    const untrusted = config.untrusted.find(({ names }) => names.includes(args.server!));
    if (untrusted) {
      throw new ConfigError(
        `mcp tools ${args.server}`,
        `the server is in ${untrusted.file.label}, which is not used`,
        untrustedReason(untrusted.state, untrusted.file.label),
      );
    }
    const names = config.servers.map((server) => server.name).join(', ') || 'none';
    throw new ConfigError(`mcp tools ${args.server}`, 'no such MCP server', `configured: ${names}`);
  }

  const connections = wanted.map(
    (spec) => new McpConnection(spec, { cwd, startTimeoutMs: timeouts.startTimeoutMs }),
  );
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  try {
    await Promise.allSettled(connections.map((connection) => connection.start(controller.signal)));
    if (args.action === 'tools') {
      const connection = connections[0]!;
      if (connection.status !== 'connected') {
        io.stderr(`warren: MCP server "${connection.name}" did not start: ${connection.failure}\n`);
        return 1;
      }
      const listing = toolsListing(connection.name, mcpTools(connection, timeouts.toolTimeoutMs));
      io.stdout(args.json ? `${JSON.stringify(listing, null, 2)}\n` : formatToolsListing(listing));
      return 0;
    }
    const listing: McpListing = {
      servers: [
        ...connections.map(listingItem),
        ...config.untrusted.flatMap(({ file, state, names }) =>
          names.map((name) => ({
            name,
            transport: null,
            target: null,
            source: file.label,
            status: 'untrusted' as const,
            tools: null,
            error: `not started: ${untrustedReason(state, file.label)}`,
          })),
        ),
      ],
    };
    io.stdout(args.json ? `${JSON.stringify(listing, null, 2)}\n` : formatMcpListing(listing));
    return listing.servers.some((server) => server.status === 'failed') ? 1 : 0;
  } finally {
    await Promise.all(connections.map((connection) => connection.close()));
    stopListening();
  }
}
