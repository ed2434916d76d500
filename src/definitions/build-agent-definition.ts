// Turns raw fields (a file's frontmatter plus body, or an SDK `agents` entry) into an
// AgentDefinition: validates each field on its own, maps other dialects' names, and reports
// what it changed. Files are lenient (a bad field is dropped with a warning); SDK input is strict.
import type { z } from 'zod';
import { HOOK_EVENTS } from '../core/hook-runner.js';
import { checkHookSettings, formatHookPath } from '../hooks/hook-settings.js';
import { normalizeModel } from '../model/model-alias.js';
import { acpFieldsOf, acpFieldWarnings, requiredBody, withoutAcpUnused } from './acp-fields.js';
import {
  type AgentDefinition,
  type AgentFieldName,
  type AgentSource,
  agentFieldSchemas,
} from './agent-definition.js';
import type { AgentDiagnostic } from './agent-load-entry.js';
import { AGENT_NAME_RULE, checkAgentName } from './agent-name.js';
import { fieldForKey, isForeignField, UNKNOWN_FIELD_HINTS } from './field-names.js';
import {
  isPlainRecord,
  mcpServerList,
  mergeLists,
  nameList,
  preview,
  withoutUndefined,
} from './field-values.js';
import { splitForeignHookBlocks } from './foreign-hook-blocks.js';
import { normalizeTools } from './normalize-tools.js';
import { readOpencodePermission } from './opencode-permission.js';
import { cutToBytes, MAX_TEXT_BYTES } from './text-limits.js';

export interface BuildAgentDefinitionOptions {
  /** The fields as written, `prompt` included (for files: the body). */
  fields: Record<string, unknown>;
  /**
   * `file`: a missing name falls back to `fallbackName`, a bad field is dropped with a warning,
   * and unknown tool names are dropped. `sdk`: `fallbackName` (the record key) is the name, any
   * bad field is an error, and tool names are kept (library users register their own tools).
   */
  origin: 'file' | 'sdk';
  fallbackName: string;
  source: AgentSource;
  /** File line of a field's key, for diagnostics. */
  lineOf?: (field: string) => number | undefined;
  /** File line where a missing field would go (the frontmatter's first line), for its error. */
  missingFieldLine?: number;
  /**
   * Fields a file format's own mapping already reported on (codex-fields.ts, gemini-fields.ts):
   * kept in `extra` as written, without another warning.
   */
  extra?: readonly (readonly [string, unknown])[];
}

export type BuiltAgentDefinition = {
  name: string;
  warnings: AgentDiagnostic[];
  notes: AgentDiagnostic[];
  /** Tool names dropped because warren has no such tool; a run warns about each once. */
  unknownTools?: string[];
} & (
  | { definition: AgentDefinition; error?: undefined }
  /** Why there is no definition: every problem found, in one message. */
  | { definition?: undefined; error: AgentDiagnostic }
);

/**
 * Fields a parent or the run relies on: dropping a bad one would quietly change what the agent
 * does (no schema, a recoverable failure, a guard gone), so it makes the definition unusable.
 */
const GUARDING_FIELDS: ReadonlySet<AgentFieldName> = new Set([
  'outputSchema',
  'onFailure',
  'hooks',
]);

export function buildAgentDefinition(options: BuildAgentDefinitionOptions): BuiltAgentDefinition {
  const state = new BuildState(options);
  const values = state.validateFields(state.sortFields());

  const name = state.resolveName(values.name);
  const hooks = values.hooks === undefined ? undefined : state.hooks(values.hooks, name);
  state.require('description', 'add `description: <when the parent should use this agent>`');
  state.require(...requiredBody(values));
  for (const { field, message } of acpFieldWarnings(values)) state.warn(field, message);
  const noPrompt = values.prompt === undefined && values.kind !== 'acp';
  if (values.description === undefined || noPrompt || state.errors.length > 0) {
    return { name, error: state.error(), warnings: state.warnings, notes: state.notes };
  }

  const tools = normalizeTools({
    tools: values.tools,
    disallowedTools: values.disallowedTools,
    dropUnknown: options.origin === 'file',
  });
  for (const { field, message } of tools.warnings) state.warn(field, `\`${field}\`: ${message}`);
  for (const { field, message } of tools.notes) state.note(field, `\`${field}\`: ${message}`);
  const description = state.limitSize('description', values.description);
  const prompt = state.limitSize('prompt', values.prompt ?? '');
  // An ACP or a remote (A2A) agent's prompt is its own, on its side: an empty one is expected.
  if (prompt.trim() === '' && values.kind !== 'acp' && values.remote === undefined) {
    state.warn('prompt', 'the prompt is empty: the agent runs without a system prompt');
  }
  const permission =
    values.permission === undefined ? undefined : readOpencodePermission(values.permission);
  for (const message of permission?.warnings ?? []) state.warn('permission', message);
  for (const message of permission?.notes ?? []) state.note('permission', message);
  const deniedTools = mergeLists(tools.disallowedTools, permission?.deniedTools);

  const definition = withoutUndefined<AgentDefinition>({
    name,
    description,
    prompt,
    tools: state.noTools ? [] : tools.tools,
    spawnableAgents: mergeLists(tools.spawnableAgents, values.spawnableAgents),
    disallowedTools: deniedTools?.length ? deniedTools : undefined,
    permissionRules: permission?.rules.length ? permission.rules : undefined,
    readOnly: values.readOnly,
    model: values.model === undefined ? undefined : state.model(values.model),
    permissionMode: values.permissionMode,
    maxTurns: values.maxTurns,
    timeBudgetMs: values.timeBudgetMs,
    tokenBudget: values.tokenBudget,
    mcpServers: values.mcpServers === undefined ? undefined : mcpServerList(values.mcpServers),
    background: values.background,
    isolation: values.isolation,
    worktreeBase: values.worktreeBase,
    agents: values.agents === undefined ? undefined : nameList(values.agents),
    color: values.color,
    hooks,
    outputSchema: values.outputSchema,
    onFailure: values.onFailure,
    skills: values.skills === undefined ? undefined : nameList(values.skills),
    memory: values.memory,
    forkContext: values.forkContext,
    omitProjectInstructions: values.omitProjectInstructions,
    effort: values.effort,
    temperature: values.temperature,
    cacheTtl: values.cacheTtl,
    ...acpFieldsOf(values),
    remote: values.remote,
    extra: state.extra,
    source: options.source,
  });
  withoutAcpUnused(definition);
  const unknown = tools.unknownTools.length > 0 ? { unknownTools: tools.unknownTools } : {};
  return { name, definition, warnings: state.warnings, notes: state.notes, ...unknown };
}

type FieldValues = { [K in AgentFieldName]?: z.output<ReturnType<typeof agentFieldSchemas>[K]> };

/** Collects diagnostics while the fields are read, each tied to its field's line. */
class BuildState {
  readonly options: BuildAgentDefinitionOptions;
  readonly warnings: AgentDiagnostic[] = [];
  readonly notes: AgentDiagnostic[] = [];
  readonly errors: AgentDiagnostic[] = [];
  /** Kept as entries: a key such as `__proto__` must stay a key, not become a prototype. */
  readonly #extra: [string, unknown][] = [];
  /** The key each warren field was read from, for its line. */
  readonly keyOf = new Map<string, string>();
  /** Set when `tools` or `disallowedTools` could not be read. */
  noTools = false;

  constructor(options: BuildAgentDefinitionOptions) {
    this.options = options;
    for (const [key, value] of options.extra ?? []) this.#extra.push([key, value]);
  }

  /** Splits the raw keys into warren fields (under their warren names) and `extra`. */
  sortFields(): Map<AgentFieldName, unknown> {
    const known = new Map<AgentFieldName, unknown>();
    const foreign: string[] = [];
    const unknown: string[] = [];
    for (const [key, value] of Object.entries(this.options.fields)) {
      // Claude Code nests its newest fields: `experimental: { cacheTtl: 1h }`.
      if (key === 'experimental' && isPlainRecord(value) && Object.hasOwn(value, 'cacheTtl')) {
        const { cacheTtl, ...rest } = value;
        if (!known.has('cacheTtl')) {
          known.set('cacheTtl', cacheTtl);
          this.keyOf.set('cacheTtl', key);
        }
        if (Object.keys(rest).length > 0) this.#extra.push([key, rest]);
        continue;
      }
      const field = this.fieldFor(key);
      if (field !== undefined && !known.has(field)) {
        known.set(field, value);
        this.keyOf.set(field, key);
        continue;
      }
      this.#extra.push([key, value]);
      if (field !== undefined) {
        this.warn(key, `\`${key}\` repeats \`${field}\`, which is already set; kept in extra`);
      } else if (isForeignField(key)) {
        foreign.push(key);
      } else {
        unknown.push(key);
      }
    }
    if (foreign.length > 0) {
      this.note(foreign[0]!, `kept in extra, not used by warren: ${foreign.join(', ')}`);
    }
    if (unknown.length > 0) {
      const hints = unknown.flatMap((key) =>
        Object.hasOwn(UNKNOWN_FIELD_HINTS, key) ? [UNKNOWN_FIELD_HINTS[key]!] : [],
      );
      this.warn(
        unknown[0]!,
        `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `\`${k}\``).join(', ')} kept in extra and ignored${hints.length > 0 ? ` (${hints.join('; ')})` : ''}`,
      );
    }
    return known;
  }

  /** The fields warren does not know, as written. */
  get extra(): Record<string, unknown> {
    return Object.fromEntries(this.#extra);
  }

  private fieldFor(key: string): AgentFieldName | undefined {
    const found = fieldForKey(key);
    if (found?.renamed) this.note(key, `read \`${key}\` as \`${found.field}\``);
    return found?.field;
  }

  /** Keeps the fields whose values fit their schema; reports the others. */
  validateFields(raw: Map<AgentFieldName, unknown>): FieldValues {
    const values: Record<string, unknown> = {};
    for (const [field, value] of raw) {
      const key = this.keyOf.get(field) ?? field;
      const required = field === 'description' || field === 'prompt';
      if (value === null && !required) {
        this.warn(
          key,
          `\`${key}\` is empty and was ignored${field === 'tools' ? ' (write `tools: []` for no tools)' : ''}`,
        );
        continue;
      }
      const parsed = agentFieldSchemas()[field].safeParse(value);
      if (parsed.success) {
        values[field] = parsed.data;
        continue;
      }
      const [issue] = parsed.error.issues;
      const why = issue?.code === 'custom' ? `: ${issue.message}` : '';
      const problem = `\`${key}\` must be ${agentFieldSchemas()[field].description} (got ${preview(value)})${why}`;
      if (this.options.origin === 'sdk' || required || GUARDING_FIELDS.has(field)) {
        this.fail(key, problem);
      } else if (field === 'tools' || field === 'disallowedTools') {
        // Ignoring a tool list would grant every tool; an unreadable one grants none instead.
        this.noTools = true;
        this.warn(key, `${problem}; the agent gets no tools until this is fixed`);
      } else {
        this.warn(key, `${problem}; the field is ignored`);
      }
    }
    return values as FieldValues;
  }

  resolveName(written: string | undefined): string {
    const { fallbackName, origin } = this.options;
    if (origin === 'sdk') {
      if (written !== undefined && written !== fallbackName) {
        this.warn(
          'name',
          `\`name\` says "${written}" but the agent is registered as "${fallbackName}" (its key)`,
        );
      }
      return this.checkName(fallbackName, 'key');
    }
    if (written === undefined) {
      const name = this.checkName(fallbackName, 'file');
      // A `name` that failed validation was reported already.
      if (!this.keyOf.has('name') && this.errors.length === 0) {
        const message = `no \`name\`: the agent is named "${name}" after its file`;
        // opencode names every agent after its file: nothing is missing there.
        if (this.options.source.format === 'opencode') this.note('name', message);
        else this.warn('name', message);
      }
      return name;
    }
    const name = this.checkName(written, 'name');
    if (name !== checkAgentName(fallbackName).name) {
      this.note(
        'name',
        `the name "${name}" differs from the file name "${fallbackName}"; "${name}" is used`,
      );
    }
    return name;
  }

  /**
   * The name in its one spelling (lower case, `-` for spaces), or the name as written after an
   * error that says how to fix it.
   * @param from where the name was written, as the error names it
   */
  private checkName(name: string, from: 'name' | 'file' | 'key'): string {
    const checked = checkAgentName(name, { display: from === 'name' });
    if (checked.displayName !== undefined) {
      this.note(
        'name',
        `read the display name "${checked.displayName}" as "${checked.name}" (${AGENT_NAME_RULE})`,
      );
      return checked.name;
    }
    if (checked.problem !== undefined) {
      const fix = {
        name: `write it as \`name: ${checked.suggestion}\``,
        file: `add \`name: ${checked.suggestion}\` to the frontmatter`,
        key: `register it as "${checked.suggestion}"`,
      }[from];
      const what = { name: '`name`', file: 'the file name', key: 'the key in `agents`' }[from];
      this.fail('name', `${what}: ${checked.problem}; ${fix} (${AGENT_NAME_RULE})`);
      return name;
    }
    if (from !== 'file' && checked.name !== name) {
      this.note(
        'name',
        `read the name "${name}" as "${checked.name}" (names are lower case, \`-\` for spaces)`,
      );
    }
    return checked.name;
  }

  /** Cuts a description or prompt over warren's limit, with a warning. */
  limitSize(field: 'description' | 'prompt', text: string): string {
    const cut = cutToBytes(text, MAX_TEXT_BYTES);
    if (cut !== text) {
      const size = Buffer.byteLength(text, 'utf8').toLocaleString('en-US');
      this.warn(
        field,
        `\`${field}\` is ${size} bytes; only its first 64 KiB are used (shorten it, or move reference material into files the agent can read)`,
      );
    }
    return cut;
  }

  /** Hooks whose every entry is usable; a bad one makes the definition unusable. */
  hooks<T extends object>(written: T, name: string): T {
    let value = written;
    if (this.options.origin === 'file' && isPlainRecord(written)) {
      const split = splitForeignHookBlocks(written);
      if (split.foreign.length > 0) {
        const keys = split.foreign.map((key) => `\`${key}\``).join(', ');
        this.warn(
          'hooks',
          `\`hooks\`: ${keys} ${split.foreign.length > 1 ? 'are' : 'is'} not a hook event (another tool's hook block?); dropped. warren's events: ${HOOK_EVENTS.join(', ')}`,
        );
        value = split.hooks as T;
      }
    }
    const checked = checkHookSettings(value, {
      label: (path) => `agent ${name}: hooks.${formatHookPath(path)}`,
      callbacks: this.options.origin === 'sdk',
    });
    const at = (path: readonly (string | number)[]) =>
      path.length === 0 ? '`hooks`' : `\`hooks.${formatHookPath(path)}\``;
    for (const { path, message } of checked.errors) this.fail('hooks', `${at(path)} ${message}`);
    for (const { path, message } of checked.warnings) this.warn('hooks', `${at(path)}: ${message}`);
    return value;
  }

  model(value: string): string {
    const normalized = normalizeModel(value);
    if (normalized.note) this.note('model', `\`model\`: ${normalized.note}`);
    if (normalized.warning) this.warn('model', `\`model\`: ${normalized.warning}`);
    return normalized.model;
  }

  /** Reports a required field that was not written at all (a bad value is reported already). */
  require(field: AgentFieldName, fix: string): void {
    if (this.keyOf.has(field)) return;
    const message = `\`${field}\` is missing: ${fix}`;
    const line = this.options.missingFieldLine;
    this.errors.push(line === undefined ? { message } : { message, line });
  }

  fail(key: string, message: string): void {
    this.errors.push(this.at(key, message));
  }

  warn(key: string, message: string): void {
    this.warnings.push(this.at(key, message));
  }

  note(key: string, message: string): void {
    this.notes.push(this.at(key, message));
  }

  error(): AgentDiagnostic {
    const [first] = this.errors;
    return { ...first, message: this.errors.map((error) => error.message).join('; ') };
  }

  /** @param key a written key, or a warren field name (looked up as the key it was read from) */
  private at(key: string, message: string): AgentDiagnostic {
    const line = this.options.lineOf?.(this.keyOf.get(key) ?? key);
    return line === undefined ? { message } : { message, line };
  }
}
