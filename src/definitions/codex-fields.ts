// Codex's agent files (`.codex/agents/*.toml`) read field by field. A Codex agent is `name`,
// `description`, `developer_instructions` (the prompt) and any Codex config setting beside them
// (`model`, `sandbox_mode`, `mcp_servers`, …): each is mapped to warren's field, or kept and
// warned about when warren has nothing that does what it does.
import { fieldForKey } from './field-names.js';
import { at, type MappedFields, startMapping } from './mapped-fields.js';

/** Codex keys that only label or tune the agent: kept, noted, never a warning. */
const LABELS: Readonly<Record<string, string>> = {
  nickname_candidates: 'display names for spawned copies',
  model_reasoning_summary: 'reasoning summaries',
  model_verbosity: 'verbosity',
};

/** Codex settings warren has no equivalent for, with what to do instead. */
const UNMAPPED: Readonly<Record<string, string>> = {
  approval_policy:
    'what is asked is decided by the session (--permission-mode, --allowed-tools, settings), or `permissionMode` in a definition',
  web_search: 'warren has no web search tool',
  skills:
    "Codex's per-skill switches have no warren equivalent (every agent sees the project's skills)",
  tools: "Codex's tool switches have no warren equivalent; list warren tools in `tools` instead",
  model_provider: 'write the provider in `model` as `provider:model`',
  profile: 'warren has no Codex profiles',
};

/** MCP server keys warren maps; the rest of a Codex server entry is warned about. */
const SERVER_KEYS = new Set([
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'http_headers',
  'bearer_token_env_var',
  'enabled',
]);

/**
 * @param table the parsed TOML document
 * @param lines file line of each top-level key (a table's header line for tables)
 */
export function mapCodexFields(
  table: Record<string, unknown>,
  lines: Record<string, number>,
): MappedFields {
  const { mapped, lineOf, keep } = startMapping(lines);
  const set = (key: string, value: unknown) => mapped.extra.push([key, value]);

  for (const [key, value] of Object.entries(table)) {
    if (key === 'developer_instructions') {
      keep(key, 'prompt', value);
    } else if (key === 'sandbox_mode') {
      set(key, value);
      sandboxMode(value, lineOf(key), mapped, keep);
    } else if (key === 'mcp_servers') {
      set(key, value);
      const servers = mcpServers(value, lineOf(key), mapped);
      if (servers !== undefined) keep(key, 'mcpServers', servers);
    } else if (Object.hasOwn(LABELS, key)) {
      set(key, value);
      mapped.notes.push(at(lineOf(key), `\`${key}\` (${LABELS[key]}) is kept, not used`));
    } else if (Object.hasOwn(UNMAPPED, key) && (isTable(value) || !fieldForKey(key))) {
      set(key, value);
      mapped.warnings.push(at(lineOf(key), `\`${key}\` is ignored: ${UNMAPPED[key]}`));
    } else if (fieldForKey(key)) {
      // Codex's `name`, `description` and `model`, and warren's fields, which a TOML file may
      // use too (`skills = ["a"]` is warren's list; Codex's `[skills]` is a table).
      keep(key, key, value);
    } else {
      set(key, value);
      mapped.warnings.push(
        at(lineOf(key), `\`${key}\` is a Codex setting warren has no equivalent for; ignored`),
      );
    }
  }

  const missing = [
    mapped.fields.description === undefined &&
      '`description` is missing: add `description = "<when the parent should use this agent>"`',
    mapped.fields.prompt === undefined &&
      '`developer_instructions` is missing: add `developer_instructions = """<the agent\'s instructions>"""`',
  ].filter((problem): problem is string => problem !== false);
  if (missing.length > 0) mapped.error = { message: missing.join('; '), line: 1 };
  return mapped;
}

function sandboxMode(
  value: unknown,
  line: number | undefined,
  mapped: MappedFields,
  keep: (key: string, field: string, value: unknown) => void,
): void {
  if (value === 'read-only') {
    keep('sandbox_mode', 'readOnly', true);
    mapped.notes.push(
      at(
        line,
        'read `sandbox_mode = "read-only"` as a read-only agent: no Write or Edit, and Bash only for read-only commands',
      ),
    );
  } else if (value === 'workspace-write') {
    mapped.notes.push(
      at(
        line,
        '`sandbox_mode = "workspace-write"`: what the agent may change is decided by the permission mode and rules',
      ),
    );
  } else if (value === 'danger-full-access') {
    mapped.warnings.push(
      at(
        line,
        '`sandbox_mode = "danger-full-access"` is not granted: a definition file never widens permissions, so the session\'s permission mode applies',
      ),
    );
  } else {
    mapped.warnings.push(
      at(
        line,
        `\`sandbox_mode\` must be "read-only", "workspace-write" or "danger-full-access" (got ${JSON.stringify(value)}); ignored`,
      ),
    );
  }
}

/**
 * Codex's `[mcp_servers.<name>]` tables as warren's server configs: `command`/`args`/`env`/`cwd`
 * start a process; `url` with `http_headers` and `bearer_token_env_var` is a Streamable HTTP
 * server. A server with `enabled = false` is left out.
 */
function mcpServers(
  value: unknown,
  line: number | undefined,
  mapped: MappedFields,
): Record<string, unknown> | undefined {
  if (!isTable(value)) {
    mapped.warnings.push(
      at(line, '`mcp_servers` must be a table of servers (`[mcp_servers.<name>]`); ignored'),
    );
    return undefined;
  }
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (!isTable(entry)) {
      mapped.warnings.push(at(line, `\`mcp_servers.${name}\` must be a table; left out`));
      continue;
    }
    if (entry.enabled === false) {
      mapped.notes.push(at(line, `\`mcp_servers.${name}\` has \`enabled = false\`; left out`));
      continue;
    }
    const unmapped = Object.keys(entry).filter((key) => !SERVER_KEYS.has(key));
    if (unmapped.length > 0) {
      mapped.warnings.push(
        at(
          line,
          `\`mcp_servers.${name}\`: ${unmapped.map((key) => `\`${key}\``).join(', ')} ignored (warren's server timeouts are MCP_TIMEOUT and MCP_TOOL_TIMEOUT; its tool lists are the agent's \`tools\`)`,
        ),
      );
    }
    servers[name] = serverConfig(entry);
  }
  return servers;
}

function serverConfig(entry: Record<string, unknown>): Record<string, unknown> {
  if (entry.url === undefined) {
    const { command, args, env, cwd } = entry;
    return withoutUndefined({ command, args, env, cwd });
  }
  const headers: Record<string, unknown> = isTable(entry.http_headers)
    ? { ...entry.http_headers }
    : {};
  if (typeof entry.bearer_token_env_var === 'string') {
    headers.Authorization = `Bearer \${${entry.bearer_token_env_var}}`;
  }
  return withoutUndefined({
    type: 'http',
    url: entry.url,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
  });
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
