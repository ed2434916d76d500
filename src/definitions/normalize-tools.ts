// Turns the `tools` / `disallowedTools` people write (Claude Code, opencode and Gemini CLI
// dialects) into warren tool rules: `Name` or `Name(specifier)` with warren's tool names, MCP
// names kept as-is.
import { BUILTIN_TOOL_NAMES } from '../tools/builtin-tool-names.js';

/** The built-in tool names a definition can grant. MCP tools are `mcp__<server>__<tool>`. */
const WARREN_TOOL_NAMES = [
  ...BUILTIN_TOOL_NAMES,
  'Skill',
  'Agent',
  'TaskOutput',
  'TaskStop',
  'SendMessage',
  'ListAgents',
];

/**
 * Lower-cased names from Claude Code, opencode and Gemini CLI that mean a warren tool. `Task` is
 * Claude Code's old name for Agent; opencode's `list`, Claude Code's `LS` and Gemini's
 * `list_directory` list a folder, which Glob does; `MultiEdit`, opencode's `patch` and Gemini's
 * `replace` are edits; Gemini's `web_fetch` and `write_todos` are WebFetch and TodoWrite.
 */
const TOOL_ALIASES: Record<string, string> = {
  ...Object.fromEntries(WARREN_TOOL_NAMES.map((name) => [name.toLowerCase(), name])),
  task: 'Agent',
  multiedit: 'Edit',
  patch: 'Edit',
  ls: 'Glob',
  list: 'Glob',
  read_file: 'Read',
  read_many_files: 'Read',
  write_file: 'Write',
  replace: 'Edit',
  list_directory: 'Glob',
  grep_search: 'Grep',
  search_file_content: 'Grep',
  run_shell_command: 'Bash',
  web_fetch: 'WebFetch',
  write_todos: 'TodoWrite',
  activate_skill: 'Skill',
};

/** A tool entry split into the tool's name and its optional `(specifier)`. */
export interface ToolRule {
  toolName: string;
  specifier?: string;
}

const RULE = /^([A-Za-z][\w-]*)\s*(?:\(([\s\S]*)\))?$/;

/** Splits `Bash(npm test:*)` into `{ toolName: 'Bash', specifier: 'npm test:*' }`. */
export function parseToolRule(rule: string): ToolRule | undefined {
  const trimmed = rule.trim();
  if (trimmed.startsWith('mcp__')) return { toolName: trimmed };
  const match = RULE.exec(trimmed);
  if (!match) return undefined;
  const specifier = match[2]?.trim();
  return specifier === undefined ? { toolName: match[1]! } : { toolName: match[1]!, specifier };
}

export type ToolsInput = string | string[] | Record<string, boolean>;

export interface NormalizeToolsOptions {
  tools?: ToolsInput;
  disallowedTools?: ToolsInput;
  /** Drop names that are not warren or MCP tools (files). Off for SDK definitions, whose tools may be custom. */
  dropUnknown: boolean;
}

export interface NormalizedTools {
  tools?: string[];
  disallowedTools?: string[];
  spawnableAgents?: string[];
  /** Keyed by field (`tools` or `disallowedTools`). */
  warnings: { field: 'tools' | 'disallowedTools'; message: string }[];
  notes: { field: 'tools' | 'disallowedTools'; message: string }[];
  /**
   * Names dropped because warren has no such tool (`WebSearch`, `NotebookEdit`, …). Each file
   * notes them; a run warns once per name (`unknownToolWarnings`), not once per file.
   */
  unknownTools: string[];
}

export function normalizeTools(options: NormalizeToolsOptions): NormalizedTools {
  const result: NormalizedTools = { warnings: [], notes: [], unknownTools: [] };
  const allow = readToolsField('tools', options.tools, result);
  const deny = readToolsField('disallowedTools', options.disallowedTools, result);

  const denied = [
    ...canonicalize('disallowedTools', deny.entries ?? [], options.dropUnknown, result),
    // Switching off a tool warren lacks (`webfetch: false`) asks for nothing: no warning.
    ...canonicalize('tools', allow.opencodeDenied, options.dropUnknown, result, { quiet: true }),
  ];
  if (denied.length > 0) result.disallowedTools = unique(denied.flatMap(splitAgentRule));
  if (allow.entries === undefined) return result;

  const allowed = canonicalize('tools', allow.entries, options.dropUnknown, result);
  if (allowed.includes('*')) {
    result.notes.push({ field: 'tools', message: '`*` grants every tool: the agent inherits all' });
    return result;
  }
  const { tools, spawnableAgents } = extractSpawnableAgents(allowed, result);
  result.tools = tools;
  if (spawnableAgents !== undefined) result.spawnableAgents = spawnableAgents;
  if (tools.length === 0 && allow.entries.length > 0) {
    result.warnings.push({
      field: 'tools',
      message: 'none of the listed tools exists in warren, so the agent gets no tools at all',
    });
  }
  return result;
}

interface ToolsField {
  /** Undefined when the field restricts nothing (absent, or an opencode map). */
  entries: string[] | undefined;
  /** Tools an opencode map switches off. */
  opencodeDenied: string[];
}

function readToolsField(
  field: 'tools' | 'disallowedTools',
  value: ToolsInput | undefined,
  result: NormalizedTools,
): ToolsField {
  if (value === undefined) return { entries: undefined, opencodeDenied: [] };
  if (typeof value === 'string') return { entries: splitToolList(value), opencodeDenied: [] };
  if (Array.isArray(value)) return { entries: value.flatMap(splitToolList), opencodeDenied: [] };

  if (field === 'disallowedTools') {
    return { entries: Object.keys(value).filter((name) => value[name]), opencodeDenied: [] };
  }
  // opencode's map switches tools on or off over the agent's defaults: `true` grants nothing
  // new, `false` removes one. Reading only the `true` keys as an allowlist would leave a
  // reviewer with `{ write: false, edit: false, bash: true }` unable to read files.
  const switchedOff = Object.keys(value).filter((name) => !value[name]);
  result.notes.push({
    field,
    message:
      switchedOff.length === 0
        ? 'opencode tools map: every tool stays available'
        : `opencode tools map: every tool stays available except ${switchedOff.join(', ')}`,
  });
  return { entries: undefined, opencodeDenied: switchedOff };
}

/** Splits `Read, Agent(a, b), Bash(git add:*)` on the commas outside parentheses. */
function splitToolList(list: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      entries.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  entries.push(current);
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

function canonicalize(
  field: 'tools' | 'disallowedTools',
  entries: string[],
  dropUnknown: boolean,
  result: NormalizedTools,
  options: { quiet?: boolean } = {},
): string[] {
  const kept: string[] = [];
  const dropped: string[] = [];
  const renamed: string[] = [];
  for (const entry of entries) {
    if (entry === '*') {
      kept.push(entry);
      continue;
    }
    const rule = parseToolRule(entry);
    const canonical = rule && canonicalToolName(rule.toolName);
    if (!rule || !canonical) {
      if (dropUnknown) dropped.push(entry);
      else kept.push(entry);
      continue;
    }
    if (canonical.toLowerCase() !== rule.toolName.toLowerCase()) {
      renamed.push(`\`${rule.toolName}\` as \`${canonical}\``);
    }
    kept.push(rule.specifier === undefined ? canonical : `${canonical}(${rule.specifier})`);
  }
  if (renamed.length > 0) {
    result.notes.push({ field, message: `read ${unique(renamed).join(', ')}` });
  }
  if (dropped.length > 0 && !options.quiet) {
    result.notes.push({
      field,
      message: `dropped ${dropped.map((d) => `\`${d}\``).join(', ')}: warren has no such tool`,
    });
    result.unknownTools = unique([...result.unknownTools, ...dropped.map(toolNameOf)]);
  }
  return unique(kept);
}

/** `Bash(rm:*)` is about Bash; anything unparsable is its own name. */
function toolNameOf(entry: string): string {
  return parseToolRule(entry)?.toolName ?? entry;
}

/**
 * One warning per tool name that definitions in use list but warren lacks, naming the
 * definitions: what a run and `warren agents` say, instead of the same line for every file.
 */
export function unknownToolWarnings(
  definitions: readonly { name: string; unknownTools?: readonly string[] }[],
): string[] {
  const namedBy = new Map<string, string[]>();
  for (const { name, unknownTools } of definitions) {
    for (const tool of unknownTools ?? []) namedBy.set(tool, [...(namedBy.get(tool) ?? []), name]);
  }
  return [...namedBy].map(([tool, names]) => {
    const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')}, …` : names.join(', ');
    const who =
      names.length === 1
        ? `agent ${shown} lists it and runs without it`
        : `${names.length} agents list it (${shown}) and run without it`;
    return `warren has no tool \`${tool}\`: ${who}. warren's tools: ${WARREN_TOOL_NAMES.join(', ')}, mcp__<server>__<tool>.`;
  });
}

function canonicalToolName(name: string): string | undefined {
  if (name.startsWith('mcp__')) return name;
  return TOOL_ALIASES[name.toLowerCase()];
}

/** `Agent(a, b)` in an allowlist grants Agent and limits what it may spawn to a and b. */
function extractSpawnableAgents(
  allowed: string[],
  result: NormalizedTools,
): { tools: string[]; spawnableAgents?: string[] } {
  const tools: string[] = [];
  const spawnable: string[] = [];
  let restricted = false;
  let bareAgent = false;
  for (const entry of allowed) {
    const rule = parseToolRule(entry);
    if (rule?.toolName !== 'Agent') {
      tools.push(entry);
      continue;
    }
    if (!tools.includes('Agent')) tools.push('Agent');
    if (rule.specifier === undefined) {
      bareAgent = true;
      continue;
    }
    restricted = true;
    spawnable.push(...splitToolList(rule.specifier));
  }
  if (!restricted) return { tools };
  if (bareAgent) {
    result.warnings.push({
      field: 'tools',
      message: `both \`Agent\` and \`Agent(${unique(spawnable).join(', ')})\` are listed; bare \`Agent\` wins, so any agent type may be spawned`,
    });
    return { tools };
  }
  return { tools, spawnableAgents: unique(spawnable) };
}

/** `Agent(a, b)` in a denylist denies each type: `Agent(a)`, `Agent(b)`. */
function splitAgentRule(entry: string): string[] {
  const rule = parseToolRule(entry);
  if (rule?.toolName !== 'Agent' || rule.specifier === undefined) return [entry];
  return splitToolList(rule.specifier).map((type) => `Agent(${type})`);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
