// opencode's `permission` block as rules of that agent: `deny` switches a tool off or becomes a
// deny rule, `ask` an ask rule, `allow` grants nothing new (a child never gets more than its
// parent) but, as in opencode, a later entry wins over an earlier one it also matches.
import { parsePermissionRule } from '../permissions/permission-rule.js';
import type { DefinitionPermissionRule } from './agent-definition.js';

type Action = 'allow' | 'ask' | 'deny';

/**
 * The warren tools each opencode permission key covers. opencode's `edit` covers every tool
 * that changes files; `list` lists a folder, which Glob does (as in `tools`).
 */
const PERMISSION_TOOLS: Readonly<Record<string, readonly string[]>> = {
  '*': ['*'],
  edit: ['Edit', 'Write'],
  write: ['Write'],
  patch: ['Edit'],
  multiedit: ['Edit'],
  bash: ['Bash'],
  read: ['Read'],
  glob: ['Glob'],
  grep: ['Grep'],
  list: ['Glob'],
  task: ['Agent'],
  webfetch: ['WebFetch'],
  todowrite: ['TodoWrite'],
  skill: ['Skill'],
};

/** opencode keys for things warren has no tool for, or handles otherwise. */
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  external_directory: 'warren asks before any path outside the allowed directories anyway',
  doom_loop: 'warren has no doom-loop check',
  question: 'warren has no question tool',
  websearch: 'warren has no web search tool',
  codesearch: 'warren has no code search tool',
  lsp: 'warren has no LSP tool',
  todoread: 'warren has no todo-reading tool',
};

export interface OpencodePermission {
  /** Tools switched off outright (`bash: deny`): removed from the agent like `disallowedTools`. */
  deniedTools: string[];
  /** Deny and ask rules for what is denied or asked about only in part. */
  rules: DefinitionPermissionRule[];
  warnings: string[];
  notes: string[];
}

/** One entry of the block, flattened, in the order written: the last match wins. */
interface Entry {
  tool: string;
  /** `*` for the whole tool. */
  pattern: string;
  action: Action;
  field: string;
  /** The entry as a warren rule; undefined when warren's rules cannot say the pattern. */
  rule?: string;
}

/**
 * @param value the `permission` field as written: an action, a map of tool to action(s), or
 *   OpenCode 2's list of `{ action, resource, effect }`
 */
export function readOpencodePermission(
  value: string | Record<string, unknown> | unknown[],
): OpencodePermission {
  const result: OpencodePermission = { deniedTools: [], rules: [], warnings: [], notes: [] };
  const entries = flatten(value, result).map((entry) => ({ ...entry, rule: ruleText(entry) }));
  entries.forEach((entry, index) => {
    if (entry.action === 'allow') return;
    // An exception warren cannot say is left out: the rule then covers more, never less.
    const except = entries
      .slice(index + 1)
      .filter((later) => later.action !== entry.action && mayOverlap(entry, later))
      .flatMap((later) => later.rule ?? []);
    if (entry.rule === undefined) {
      result.warnings.push(
        `\`${entry.field}\`: warren cannot match the pattern "${entry.pattern}", so the ${entry.action} covers all of ${entry.tool}`,
      );
    }
    const rule = entry.rule ?? entry.tool;
    if (entry.action === 'deny' && rule === entry.tool && except.length === 0) {
      result.deniedTools.push(entry.tool);
      return;
    }
    result.rules.push({
      behavior: entry.action,
      rule,
      ...(except.length > 0 && { except: [...new Set(except)] }),
      field: entry.field,
    });
  });
  result.deniedTools = [...new Set(result.deniedTools)];
  summarize(result);
  return result;
}

function flatten(
  value: string | Record<string, unknown> | unknown[],
  result: OpencodePermission,
): Entry[] {
  if (Array.isArray(value)) return flattenRuleList(value, result);
  if (typeof value === 'string') {
    return [
      {
        tool: '*',
        pattern: '*',
        action: readAction(value, 'permission', result),
        field: 'permission',
      },
    ];
  }
  const entries: Entry[] = [];
  const ignored: string[] = [];
  for (const [key, setting] of Object.entries(value)) {
    const field = `permission.${key}`;
    const name = key.toLowerCase();
    const tools = Object.hasOwn(PERMISSION_TOOLS, name)
      ? PERMISSION_TOOLS[name]
      : mcpServerTools(key);
    if (tools === undefined) {
      if (Object.hasOwn(NOT_APPLICABLE, name)) ignored.push(`${key} (${NOT_APPLICABLE[name]})`);
      else {
        result.warnings.push(
          `\`${field}\`: opencode has no such permission key; ignored (for an MCP server's tools write \`<server>_*\`)`,
        );
      }
      continue;
    }
    for (const [pattern, action] of patternsOf(setting, field, result)) {
      for (const tool of tools) entries.push({ tool, pattern, action, field });
    }
  }
  if (ignored.length > 0) result.notes.push(`\`permission\` keys ignored: ${ignored.join('; ')}`);
  return entries;
}

/** OpenCode 2's action names where they differ from V1's keys. */
const V2_ACTIONS: Readonly<Record<string, string>> = { shell: 'bash', subagent: 'task' };

/** OpenCode 2's `permissions`: `{ action, resource, effect }` rules, the last match winning. */
function flattenRuleList(rules: unknown[], result: OpencodePermission): Entry[] {
  const entries: Entry[] = [];
  rules.forEach((rule, index) => {
    const field = `permissions[${index}]`;
    const { action, resource, effect } = (rule ?? {}) as Record<string, unknown>;
    if (typeof action !== 'string' || (resource !== undefined && typeof resource !== 'string')) {
      result.warnings.push(
        `\`${field}\`: not a { action, resource, effect } rule with string action and resource; ignored`,
      );
      return;
    }
    const key = V2_ACTIONS[action.toLowerCase()] ?? action;
    const tools = Object.hasOwn(PERMISSION_TOOLS, key.toLowerCase())
      ? PERMISSION_TOOLS[key.toLowerCase()]
      : mcpServerTools(key);
    if (tools === undefined) {
      const why = NOT_APPLICABLE[key.toLowerCase()];
      result.warnings.push(
        `\`${field}\`: ${why ? `${why}` : `warren has no tool for the action "${action}"`}; ignored`,
      );
      return;
    }
    const pattern = resource === undefined || resource.trim() === '' ? '*' : resource;
    const act = readAction(effect, `${field}.effect`, result);
    for (const tool of tools) entries.push({ tool, pattern, action: act, field });
  });
  return entries;
}

/**
 * opencode names an MCP server's tools `<server>_<tool>`, so `github_*` is every tool of server
 * github: warren's `mcp__github`. A key naming one tool is ambiguous (`_` may be in either part).
 */
function mcpServerTools(key: string): readonly string[] | undefined {
  const server = /^([A-Za-z0-9][A-Za-z0-9_-]*)_\*$/.exec(key)?.[1];
  return server === undefined ? undefined : [`mcp__${server}`];
}

/** `deny` is `{ "*": deny }`; a map is read entry by entry. */
function patternsOf(
  setting: unknown,
  field: string,
  result: OpencodePermission,
): [string, Action][] {
  if (typeof setting === 'object' && setting !== null && !Array.isArray(setting)) {
    return Object.entries(setting).map(([pattern, action]) => [
      pattern.trim() === '' ? '*' : pattern,
      readAction(action, `${field}."${pattern}"`, result),
    ]);
  }
  return [['*', readAction(setting, field, result)]];
}

/** An action warren cannot read is read as `ask`: stricter than allow, and it can be allowed. */
function readAction(value: unknown, field: string, result: OpencodePermission): Action {
  if (value === 'allow' || value === 'ask' || value === 'deny') return value;
  result.warnings.push(
    `\`${field}\`: ${JSON.stringify(value) ?? String(value)} is not an action (write allow, ask or deny); read as ask`,
  );
  return 'ask';
}

/** Whether a call could match both entries; exceptions that cannot are left out of messages. */
function mayOverlap(entry: Entry, later: Entry): boolean {
  if (entry.tool !== later.tool && entry.tool !== '*' && later.tool !== '*') return false;
  const [a, b] = [entry.pattern.trim(), later.pattern.trim()];
  if (!a.includes('*') && !b.includes('*')) {
    // A Bash deny or ask without `*` covers the command with arguments too (see ruleText).
    return a === b || (entry.tool === 'Bash' && b.startsWith(`${a} `));
  }
  // Up to their first `*`, one must begin the other: `git *` and `rm -rf *` never meet.
  const head = (pattern: string) => pattern.split('*')[0] ?? pattern;
  return head(a).startsWith(head(b)) || head(b).startsWith(head(a));
}

/**
 * The entry as a warren rule. opencode matches `git push` only as that exact command; a deny or
 * ask entry written without `*` also covers it with arguments (`git push origin main`), which
 * is what such an entry is written for. An allow entry stays exact.
 */
function ruleText(entry: Entry): string | undefined {
  if (entry.pattern === '*') return entry.tool;
  const pattern = entry.pattern.trim();
  const specifier =
    entry.tool === 'Bash' && entry.action !== 'allow' && !pattern.includes('*')
      ? `${pattern}:*`
      : pattern;
  const text = `${entry.tool}(${specifier})`;
  try {
    parsePermissionRule(text, entry.field);
    return text;
  } catch {
    return undefined;
  }
}

function summarize(result: OpencodePermission): void {
  const ruleList = (behavior: Action) =>
    result.rules.filter((rule) => rule.behavior === behavior).map((rule) => rule.rule);
  const parts = [
    result.deniedTools.length > 0 ? `switches off ${result.deniedTools.join(', ')}` : '',
    ruleList('deny').length > 0 ? `denies ${ruleList('deny').join(', ')}` : '',
    ruleList('ask').length > 0 ? `asks before ${ruleList('ask').join(', ')}` : '',
  ].filter((part) => part !== '');
  if (parts.length > 0) result.notes.unshift(`opencode \`permission\`: ${parts.join('; ')}`);
}
