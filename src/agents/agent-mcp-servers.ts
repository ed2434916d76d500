// An agent's MCP servers from its definition's `mcpServers`: a name shares a connection its
// parent already has (never closed here); an inline server is started for this agent alone,
// visible to it and its own children, and closed when it ends. Project files start nothing
// until trusted.
import { ConfigError } from '../core/config-error.js';
import type { Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { type McpTimeouts, startMcpServers } from '../mcp/mcp-servers.js';
import type { McpTool } from '../mcp/mcp-tool.js';
import { type McpServerSpec, parseServerConfig } from '../mcp/server-config.js';
import { type McpTrust, untrustedReason } from '../mcp/trust-store.js';

/** What every agent's servers start with: run-wide, set once by `query()`. */
export interface AgentMcpSettings extends McpTimeouts {
  trust: McpTrust;
  /** For `${VAR}` in servers written in files. */
  env: NodeJS.ProcessEnv;
}

export interface AgentServers {
  /** The tools the definition's servers add, named and inline; the agent's tool filter still applies. */
  tools: Tool[];
  /** One line per server left out, for the run's `warning` events. */
  warnings: string[];
  /** Stops the servers started for this agent; shared ones are left alone. Safe to call twice. */
  close(): Promise<void>;
}

const NOTHING: AgentServers = { tools: [], warnings: [], close: async () => {} };

/**
 * Starts the agent's inline servers (all at once) and gathers the named ones from its parent.
 * Never throws for a server: what cannot start is a warning and the agent runs without it.
 */
export async function startAgentServers(params: {
  definition: AgentDefinition;
  /** The tools of the agent's parent (for the main agent, the run's): where names resolve. */
  parentTools: readonly Tool[];
  cwd: string;
  signal: AbortSignal;
  settings: AgentMcpSettings;
}): Promise<AgentServers> {
  const { definition, settings } = params;
  const entries = definition.mcpServers ?? [];
  if (entries.length === 0) return NOTHING;
  const agent = `agent "${definition.name}"`;
  const { names, inline, warnings } = readEntries(definition, settings.env);

  const tools: Tool[] = [];
  for (const name of names) {
    const shared = params.parentTools.filter(
      (tool) => (tool as Partial<McpTool>).mcpServer === name,
    );
    if (shared.length > 0) tools.push(...shared);
    else warnings.push(`MCP server "${name}" named by ${agent} is not available to it; left out`);
  }

  const trusted = inline.length > 0 && isTrusted(definition, settings.trust, warnings);
  if (!trusted) return { tools, warnings, close: NOTHING.close };
  const own = await startMcpServers(inline, {
    cwd: params.cwd,
    signal: params.signal,
    startTimeoutMs: settings.startTimeoutMs,
    toolTimeoutMs: settings.toolTimeoutMs,
    owner: agent,
  });
  warnings.push(...own.warnings);
  const ownNames = new Set(own.tools.map((tool) => tool.name));
  return {
    // The agent's own server wins a name it shares with an inherited one.
    tools: [...tools.filter((tool) => !ownNames.has(tool.name)), ...own.tools],
    warnings,
    close: () => own.close(),
  };
}

/** An agent's tools with its servers' tools added; theirs win a name both have. */
export function withAgentServerTools(tools: readonly Tool[], added: readonly Tool[]): Tool[] {
  if (added.length === 0) return [...tools];
  const taken = new Set(added.map((tool) => tool.name));
  return [...tools.filter((tool) => !taken.has(tool.name)), ...added];
}

/**
 * The entries as names and inline servers. Real files use three forms: `- github` (a name),
 * Claude Code's `- local: {command, args}`, and `- name: local` with `command` beside it.
 */
function readEntries(
  definition: AgentDefinition,
  env: NodeJS.ProcessEnv,
): { names: string[]; inline: McpServerSpec[]; warnings: string[] } {
  const names: string[] = [];
  const inline: McpServerSpec[] = [];
  const warnings: string[] = [];
  const where = definition.source.path ?? `agent "${definition.name}"`;
  // The library's own objects are taken as written; files get `${VAR}` expansion.
  const expandFrom = definition.source.kind === 'sdk' ? undefined : env;
  (definition.mcpServers ?? []).forEach((entry, index) => {
    const field = `${where}: mcpServers[${index}]`;
    if (typeof entry === 'string') {
      names.push(entry);
      return;
    }
    const form = entryForm(entry);
    if (!form) {
      warnings.push(
        `${field}: not a server name or a server (write "- <name>", or "- <name>: {command, args}")`,
      );
      return;
    }
    if (form.config === undefined) {
      names.push(form.name);
      return;
    }
    try {
      const config = parseServerConfig(form.name, form.config, {
        location: {
          at: (path) => `${field}${path.length > 1 ? `.${path.slice(1).join('.')}` : ''}`,
        },
        env: expandFrom,
      });
      inline.push({ name: form.name, config, source: where });
    } catch (error) {
      if (!ConfigError.isInstance(error)) throw error;
      warnings.push(`${error.message}; the server is left out`);
    }
  });
  return { names, inline, warnings };
}

function entryForm(entry: Record<string, unknown>): { name: string; config?: unknown } | undefined {
  if (typeof entry.name === 'string') {
    const { name, ...config } = entry;
    // `- name: github` alone refers to a server; with `command` or `url` beside it, it is one.
    return Object.keys(config).length === 0 ? { name } : { name, config };
  }
  const keys = Object.keys(entry);
  if (keys.length !== 1) return undefined;
  const name = keys[0]!;
  const config = entry[name];
  return typeof config === 'object' && config !== null ? { name, config } : undefined;
}

/** Project definitions start processes from the repository: only when the file is trusted. */
function isTrusted(definition: AgentDefinition, trust: McpTrust, warnings: string[]): boolean {
  const { kind, path } = definition.source;
  if (kind !== 'project' || path === undefined) return true;
  const agent = `agent "${definition.name}"`;
  try {
    const state = trust.trustOf(path);
    if (state === 'trusted') return true;
    warnings.push(`MCP servers of ${agent} (${path}) not started: ${untrustedReason(state, path)}`);
  } catch (error) {
    warnings.push(`MCP servers of ${agent} not started: ${(error as Error).message}`);
  }
  return false;
}
