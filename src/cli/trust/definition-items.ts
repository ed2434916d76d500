// What a project's agent definitions would run or widen: their `hooks:` (a definition that
// replaces a built-in such as `explore` included), their inline `mcpServers`, and a
// `permissionMode` above `default` (which a main agent run with `--agent` would start in).
import { relative } from 'node:path';
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import { hookItems, isRecord } from './hook-items.js';
import { mcpServerItem } from './mcp-server-item.js';
import { namedProjectFiles } from './named-files.js';
import { widens } from './settings-items.js';
import type { TrustItem } from './trust-item.js';

/** Whether a definition came from the project's files, so trust decides what it may do. */
export function isProjectDefinition(definition: AgentDefinition): boolean {
  return definition.source.kind === 'project';
}

export function definitionItems(definition: AgentDefinition, projectDir: string): TrustItem[] {
  if (!isProjectDefinition(definition)) return [];
  const file = relative(projectDir, definition.source.path ?? definition.name);
  const agent = `agent "${definition.name}"`;
  const items: TrustItem[] = [];
  if (definition.hooks) {
    items.push(
      ...hookItems({ file, value: definition.hooks, during: ` while ${agent} runs` }, projectDir),
    );
  }
  (definition.mcpServers ?? []).forEach((entry, index) => {
    const server = inlineServer(entry);
    if (!server) return;
    items.push(
      mcpServerItem({
        file,
        field: `mcpServers[${index}]`,
        name: server.name,
        config: server.config,
        projectDir,
        owner: ` for ${agent}`,
      }),
    );
  });
  if (definition.remote) items.push(remoteAgentItem(definition, file));
  if (definition.kind === 'acp' && definition.command)
    items.push(acpAgentItem(definition, file, projectDir));
  if (definition.permissionMode && widens(definition.permissionMode)) {
    items.push({
      kind: 'permission-mode',
      file,
      field: 'permissionMode',
      action: `run ${agent} in permission mode ${definition.permissionMode}`,
      fields: { permissionMode: definition.permissionMode },
      files: {},
    });
  }
  return items;
}

/**
 * A `kind: remote` definition sends the session's work (its prompts) to an address the
 * repository chose, with credentials from the person's environment: shown in full, trusted once.
 */
function remoteAgentItem(definition: AgentDefinition, file: string): TrustItem {
  const remote = definition.remote!;
  const where = remote.cardUrl ?? `the agent of its inline card (${cardUrlOf(remote.cardJson)})`;
  const fields: Record<string, string> = {
    ...(remote.cardUrl === undefined ? {} : { agent_card_url: remote.cardUrl }),
    ...(remote.cardJson === undefined ? {} : { agent_card_json: remote.cardJson }),
  };
  for (const [key, value] of Object.entries(remote.auth ?? {}))
    fields[`auth.${key}`] = String(value);
  const auth = remote.auth ? `, authenticated with auth.type ${remote.auth.type}` : '';
  return {
    kind: 'remote-agent',
    file,
    field: 'kind',
    action: `send agent "${definition.name}"'s tasks over A2A to ${where}${auth}`,
    fields,
    files: {},
  };
}

function cardUrlOf(cardJson: string | undefined): string {
  try {
    const card = JSON.parse(cardJson ?? '{}') as {
      url?: unknown;
      supportedInterfaces?: { url?: unknown }[];
    };
    const url = card.supportedInterfaces?.[0]?.url ?? card.url;
    return typeof url === 'string' ? url : 'no address';
  } catch {
    return 'no address';
  }
}

/**
 * A `kind: acp` definition runs its command: project-supplied code, trusted like a server's
 * command line (with the project's files it names, so a changed script withdraws the trust).
 */
function acpAgentItem(definition: AgentDefinition, file: string, projectDir: string): TrustItem {
  const command = definition.command ?? '';
  const args = definition.args ?? [];
  const env = Object.entries(definition.env ?? {});
  const fields: Record<string, string> = { command, args: JSON.stringify(args) };
  for (const [name, value] of env) fields[`env.${name}`] = value;
  return {
    kind: 'acp-agent',
    file,
    field: 'command',
    action: `run ACP agent "${definition.name}": \`${[command, ...args].join(' ')}\`${
      env.length > 0 ? ` with env ${env.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''
    }`,
    fields,
    files: namedProjectFiles(
      [command, ...args, ...env.map(([, value]) => value)],
      [projectDir],
      projectDir,
    ),
  };
}

/** Whether an untrusted project's definition must be left out whole: it runs a command. */
export function runsProjectCommand(definition: AgentDefinition): boolean {
  return isProjectDefinition(definition) && definition.kind === 'acp';
}

/** The definition as an untrusted project may have it: no hooks, inline servers or wider mode. */
export function withoutTrustItems(definition: AgentDefinition): AgentDefinition {
  const names = definition.mcpServers?.filter((entry) => inlineServer(entry) === undefined);
  const wider = definition.permissionMode !== undefined && widens(definition.permissionMode);
  const nothing = !definition.hooks && names?.length === definition.mcpServers?.length && !wider;
  if (!isProjectDefinition(definition) || nothing) return definition;
  const { hooks: _hooks, ...rest } = definition;
  return {
    ...rest,
    ...(names && { mcpServers: names }),
    permissionMode: wider ? undefined : definition.permissionMode,
  };
}

/**
 * An entry that starts a server of its own, in the forms agent-mcp-servers.ts reads: `- name:
 * {command, …}` or `- name: x` with `command`/`url` beside it. A bare name shares the session's.
 */
function inlineServer(
  entry: string | Record<string, unknown>,
): { name: string; config: unknown } | undefined {
  if (typeof entry === 'string') return undefined;
  if (typeof entry.name === 'string') {
    const { name, ...config } = entry;
    return Object.keys(config).length === 0 ? undefined : { name, config };
  }
  const keys = Object.keys(entry);
  if (keys.length !== 1) return undefined;
  const config = entry[keys[0]!];
  return isRecord(config) ? { name: keys[0]!, config } : undefined;
}
