// Which tools a sub-agent gets: its parent's, narrowed by its definition's allow and deny
// lists. The one rule that matters: nothing its parent lacks, at any depth.
import type { PermissionRule } from '../core/permission-policy.js';
import type { Tool } from '../core/tool.js';
import type { AgentDefinition, DefinitionPermissionRule } from '../definitions/agent-definition.js';
import { parseToolRule } from '../definitions/normalize-tools.js';
import { parsePermissionRule } from '../permissions/permission-rule.js';
import { readOnlyBashTool } from '../tools/bash.js';

/**
 * An agent's tools, and the deny and ask rules its permission policy adds for them. Shared by
 * the siblings of one turn (spawn-tools.ts): never changed in place.
 */
export interface AgentToolList {
  readonly tools: readonly Tool[];
  readonly denyRules: readonly PermissionRule[];
  readonly askRules: readonly PermissionRule[];
}

export interface ChildTools {
  /** The parent's plain tools (no Agent or delegate tools) this child may use. */
  tools: Tool[];
  /**
   * `Tool(specifier)` entries of `disallowedTools` and the deny rules of an opencode `permission`
   * block: calls the child's permissions deny.
   */
  denyRules: PermissionRule[];
  /** The ask rules of an opencode `permission` block. */
  askRules: PermissionRule[];
  /** Whether the definition lets the child start agents of its own (`Agent` not taken away). */
  mayUseAgent: boolean;
}

/** The tools that manage background work; they come with `Agent`. */
const TASK_TOOL_NAMES: ReadonlySet<string> = new Set([
  'TaskOutput',
  'TaskStop',
  'SendMessage',
  'ListAgents',
]);

/**
 * Tools that start agents, and those that manage them: the runtime gives them per agent (with
 * `Agent`) rather than passing them down.
 */
export function isSpawnTool(tool: Pick<Tool, 'name'>): boolean {
  return (
    tool.name === 'Agent' || tool.name.startsWith('delegate_to_') || TASK_TOOL_NAMES.has(tool.name)
  );
}

export function childTools(parentTools: readonly Tool[], definition: AgentDefinition): ChildTools {
  const allow = definition.tools?.map(parseRule);
  const deny = (definition.disallowedTools ?? []).map(parseRule);
  const denyRules = (definition.disallowedTools ?? [])
    .filter((_, index) => deny[index]?.specifier !== undefined)
    .map((rule) => parsePermissionRule(rule, `agent ${definition.name}: disallowedTools`));
  const permissionRules = (behavior: 'deny' | 'ask') =>
    (definition.permissionRules ?? [])
      .filter((rule) => rule.behavior === behavior)
      .map((rule) => definitionRule(rule, definition));
  const allowed = (name: string) =>
    allow === undefined || allow.some((rule) => matchesName(rule.toolName, name));
  const denied = (name: string) =>
    deny.some((rule) => rule.specifier === undefined && matchesName(rule.toolName, name));
  const granted = (name: string) => allowed(name) && !denied(name);
  // Skill only reads instructions, like the skills list in the prompt: an allowlist that does
  // not name it keeps it; `disallowedTools: Skill` or `tools: []` takes it away.
  const kept = (name: string) =>
    granted(name) || (name === 'Skill' && definition.tools?.length !== 0 && !denied(name));

  let tools = parentTools.filter((tool) => !isSpawnTool(tool) && kept(tool.name));
  if (definition.readOnly) tools = tools.flatMap(readOnlyVersion);
  return {
    tools,
    denyRules: [...denyRules, ...permissionRules('deny')],
    askRules: permissionRules('ask'),
    mayUseAgent: granted('Agent'),
  };
}

/** A rule of an opencode `permission` block, named by its file and key for messages. */
function definitionRule(
  rule: DefinitionPermissionRule,
  definition: AgentDefinition,
): PermissionRule {
  const source = `${definition.source.path ?? `agent ${definition.name}`} ${rule.field}`;
  const except = rule.except?.map((text) => parsePermissionRule(text, source));
  return { ...parsePermissionRule(rule.rule, source), ...(except && { except }) };
}

/** A read-only agent keeps what changes nothing; Bash stays, limited to read-only commands. */
function readOnlyVersion(tool: Tool): Tool[] {
  if (tool.name === 'Bash') return [readOnlyBashTool];
  return tool.isReadOnly === true ? [tool] : [];
}

function parseRule(rule: string): { toolName: string; specifier?: string } {
  return parseToolRule(rule) ?? { toolName: rule };
}

/** `Read` matches Read; `mcp__fs__*` and `mcp__fs` match every tool of server fs. */
function matchesName(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name || isServerPattern(pattern, name);
  const source = pattern.split('*').map(escapeRegExp).join('.*');
  return new RegExp(`^${source}$`).test(name);
}

/** `mcp__fs` names a whole MCP server, as in Claude Code and in permission rules. */
function isServerPattern(pattern: string, name: string): boolean {
  return (
    /^mcp__[^_]/.test(pattern) &&
    !pattern.slice(5).includes('__') &&
    name.startsWith(`${pattern}__`)
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
