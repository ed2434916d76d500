// What narrows what an agent may do, as `warren agents` shows it: read-only, tools switched off,
// its permission mode and rules, MCP servers, skills, hooks and turn cap; and the spawn targets
// it names that no definition provides.
import type { AgentDefinition } from '../../definitions/agent-definition.js';

export interface AgentLimits {
  readOnly: boolean;
  /** Tools and rules its `disallowedTools` (or an opencode `permission` block) switches off. */
  toolsOff: string[];
  /** Null: the session's mode. */
  permissionMode: string | null;
  /** Deny and ask rules of its own, as `deny Bash(git push:*)`. */
  permissionRules: string[];
  /** Servers it starts or uses, by name. */
  mcpServers: string[];
  skills: string[];
  /** Hook events it has hooks for. */
  hooks: string[];
  /** Null: the default cap for sub-agents. */
  maxTurns: number | null;
}

export function limitsOf(definition: AgentDefinition): AgentLimits {
  return {
    readOnly: definition.readOnly === true,
    toolsOff: definition.disallowedTools ?? [],
    permissionMode: definition.permissionMode ?? null,
    permissionRules: (definition.permissionRules ?? []).map(
      (rule) => `${rule.behavior} ${rule.rule}`,
    ),
    mcpServers: (definition.mcpServers ?? []).flatMap((server) =>
      typeof server === 'string'
        ? [server]
        : typeof server.name === 'string'
          ? [server.name]
          : Object.keys(server),
    ),
    skills: definition.skills ?? [],
    hooks: Object.keys(definition.hooks ?? {}),
    maxTurns: definition.maxTurns ?? null,
  };
}

/** One short cell: `read-only, off: Bash, mode plan, 2 rules, mcp: fs, 1 skill, hooks: Stop, 10 turns`. */
export function limitsSummary(limits: AgentLimits): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [
    limits.readOnly ? 'read-only' : '',
    limits.toolsOff.length > 0 ? `off: ${limits.toolsOff.join(' ')}` : '',
    limits.permissionMode ? `mode ${limits.permissionMode}` : '',
    limits.permissionRules.length > 0 ? count(limits.permissionRules.length, 'rule') : '',
    limits.mcpServers.length > 0 ? `mcp: ${limits.mcpServers.join(' ')}` : '',
    limits.skills.length > 0 ? count(limits.skills.length, 'skill') : '',
    limits.hooks.length > 0 ? `hooks: ${limits.hooks.join(' ')}` : '',
    limits.maxTurns !== null ? count(limits.maxTurns, 'turn') : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(', ') : '-';
}

/** Names in `Agent(a, b)` and `agents:` that no definition provides. */
export function missingSpawnTargets(
  definition: AgentDefinition,
  definitions: ReadonlyMap<string, AgentDefinition>,
): string[] {
  const named = [...(definition.spawnableAgents ?? []), ...(definition.agents ?? [])];
  const known = new Set([...definitions.keys()].map((name) => name.toLowerCase()));
  return [...new Set(named)].filter((name) => !known.has(name.toLowerCase()));
}
