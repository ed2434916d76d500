// Which frontmatter keys mean what: warren's own fields, the names other tools give them, the
// Claude Code and opencode fields warren keeps without using, and the metadata keys real files carry.
import { lazy } from '../core/lazy.js';
import { type AgentFieldName, agentFieldSchemas } from './agent-definition.js';

/**
 * Keys other tools use for a warren field. opencode's `steps` caps agentic iterations; Claude
 * Code's `omitClaudeMd` leaves its CLAUDE.md out of an agent's prompt.
 */
const FIELD_ALIASES: Readonly<Record<string, AgentFieldName>> = {
  steps: 'maxTurns',
  maxSteps: 'maxTurns',
  omitClaudeMd: 'omitProjectInstructions',
  model_reasoning_effort: 'effort',
  reasoningEffort: 'effort',
  'experimental.cacheTtl': 'cacheTtl',
  // OpenCode 2's ordered rule list; files written for V1 use the name for V1's map too.
  permissions: 'permission',
};

/**
 * Fields of Claude Code, opencode and Gemini CLI that warren understands but does not use (in a
 * Gemini file, gemini-fields.ts maps `timeout_mins` and checks `kind`).
 */
const FOREIGN_FIELDS: ReadonlySet<string> = new Set([
  'timeout_mins',
  'initialPrompt',
  // Claude Code's newest fields; `experimental.cacheTtl` is read, the rest kept.
  'experimental',
  'mode',
  'top_p',
  'hidden',
  'disable',
  'variant',
]);

/**
 * Keys that are no field of any tool, yet real files carry them (the shared corpus has these
 * 19, in 195 files). They are kept in `extra`; the lenient parser needs to know they are keys.
 */
const METADATA_KEYS: ReadonlySet<string> = new Set([
  'category',
  'version',
  'id',
  'type',
  'author',
  'tags',
  'model_family',
  'recommended_models',
  'tested_with',
  'last_tested',
  'maintainer',
  'status',
  'dependencies',
  'team_leader',
  'deprecatedIn',
  'replacedBy',
  'run_mode',
]);

/** Likely mistakes among unknown keys, and what was probably meant. */
export const UNKNOWN_FIELD_HINTS: Readonly<Record<string, string>> = {};

const byLooseName = lazy(
  () =>
    new Map(
      Object.keys(agentFieldSchemas()).map((field) => [looseName(field), field as AgentFieldName]),
    ),
);

/** The warren field a key means, and whether it had to be read as another name to get there. */
export function fieldForKey(key: string): { field: AgentFieldName; renamed: boolean } | undefined {
  if (Object.hasOwn(agentFieldSchemas(), key)) {
    return { field: key as AgentFieldName, renamed: false };
  }
  const field =
    (Object.hasOwn(FIELD_ALIASES, key) ? FIELD_ALIASES[key] : undefined) ??
    byLooseName().get(looseName(key));
  return field === undefined ? undefined : { field, renamed: true };
}

export function isForeignField(key: string): boolean {
  return FOREIGN_FIELDS.has(key);
}

/** Whether a key is one that definition files use: a field of any dialect, or known metadata. */
export function isKnownKey(key: string): boolean {
  return fieldForKey(key) !== undefined || FOREIGN_FIELDS.has(key) || METADATA_KEYS.has(key);
}

/** `max_turns`, `MaxTurns` and `max-turns` all mean `maxTurns`. */
function looseName(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}
