// A set of MCP servers started together (a session's, or one agent's own): all at once, each
// with a start timeout; one that cannot start is a warning and the rest go on; closed together.
import { ConfigError } from '../core/config-error.js';
import type { McpConnection } from './mcp-connection.js';
import type { McpTool } from './mcp-tool.js';
import type { McpServerSpec } from './server-config.js';

/** How long a server may take from start to its tool list (Claude Code's MCP_TIMEOUT). */
const DEFAULT_START_TIMEOUT_MS = 30_000;
/** How long one tool call may take (Claude Code's MCP_TOOL_TIMEOUT). */
const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;

export interface McpTimeouts {
  startTimeoutMs: number;
  toolTimeoutMs: number;
}

export interface StartServersOptions extends McpTimeouts {
  /** Where stdio servers run (their `cwd` is relative to it). */
  cwd: string;
  /** Cancels starts still under way; what started is stopped again. */
  signal?: AbortSignal;
  /** Who the servers are for, in warnings: `agent "reviewer"`. Default: the session. */
  owner?: string;
}

export interface StartedServers {
  /** The servers that started; the caller owns them and must `close()`. */
  readonly connections: readonly McpConnection[];
  readonly tools: readonly McpTool[];
  /** One line per server that did not start, or tool left out. */
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

/** `MCP_TIMEOUT` and `MCP_TOOL_TIMEOUT` (milliseconds), else the defaults. */
export function mcpTimeoutsFromEnv(env: NodeJS.ProcessEnv = process.env): McpTimeouts {
  return {
    startTimeoutMs: millisecondsFrom(env, 'MCP_TIMEOUT') ?? DEFAULT_START_TIMEOUT_MS,
    toolTimeoutMs: millisecondsFrom(env, 'MCP_TOOL_TIMEOUT') ?? DEFAULT_TOOL_TIMEOUT_MS,
  };
}

export async function startMcpServers(
  specs: readonly McpServerSpec[],
  options: StartServersOptions,
): Promise<StartedServers> {
  const warnings: string[] = [];
  if (specs.length === 0) return NO_SERVERS;
  // The MCP SDK (with its JSON Schema validator) loads with the first server, not with warren.
  const { McpConnection } = await import('./mcp-connection.js');
  const connections = specs.map(
    (spec) => new McpConnection(spec, { cwd: options.cwd, startTimeoutMs: options.startTimeoutMs }),
  );
  const started = await Promise.all(
    connections.map(async (connection) => {
      try {
        await connection.start(options.signal);
        return connection;
      } catch (error) {
        const owner = options.owner ? ` of ${options.owner}` : '';
        warnings.push(
          `MCP server "${connection.name}"${owner} did not start: ${(error as Error).message}; going on without it`,
        );
        return undefined;
      }
    }),
  );
  const live = started.filter((connection) => connection !== undefined);
  // The tool wrapper loads with the first server started, not with every run.
  const { mcpTools } = await import('./mcp-tool.js');
  const tools: McpTool[] = [];
  const names = new Set<string>();
  for (const connection of live) {
    for (const tool of mcpTools(connection, options.toolTimeoutMs)) {
      if (names.has(tool.name)) {
        warnings.push(
          `MCP tool ${tool.name} of server "${connection.name}" has the name of another server's tool and is left out; rename one of the servers`,
        );
        continue;
      }
      names.add(tool.name);
      tools.push(tool);
    }
  }
  let closing: Promise<void> | undefined;
  return {
    connections: live,
    tools,
    warnings,
    close() {
      closing ??= Promise.all(connections.map((connection) => connection.close())).then(() => {});
      return closing;
    },
  };
}

const NO_SERVERS: StartedServers = {
  connections: [],
  tools: [],
  warnings: [],
  close: async () => {},
};

function millisecondsFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  if (Number.isSafeInteger(number) && number > 0) return number;
  throw new ConfigError(
    name,
    `expected a positive number of milliseconds, got "${value.slice(0, 40)}"`,
    `e.g. ${name}=60000, or unset it`,
  );
}
