// The `hooks` setting in Claude Code's shape, from a settings file, a definition's frontmatter
// or query() options: checked entry by entry (every problem names its place) and compiled into
// the groups the runner looks up by event.

import { ConfigError } from '../core/config-error.js';
import { messageOf } from '../core/error-message.js';
import { HOOK_EVENTS, type HookEventName } from '../core/hook-runner.js';
import type { HookInput } from './hook-input.js';
import { compileMatcher, type Matcher } from './hook-matcher.js';
import type { HookJsonOutput } from './hook-output.js';

/** A shell command, given the event as JSON on stdin (see docs/hooks.md). */
export interface CommandHook {
  type: 'command';
  command: string;
  /** Seconds before the command is stopped. Default 60. */
  timeout?: number;
}

/** A library hook: gets the same input a command reads on stdin, answers the same JSON. */
export type HookCallback<E extends HookEventName = HookEventName> = (
  input: HookInput<E>,
  toolUseId: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJsonOutput | undefined> | Promise<void> | HookJsonOutput | undefined | void;

export interface HookMatcher<E extends HookEventName = HookEventName> {
  /**
   * Tool name (tool events), agent type (SubagentStart, SubagentStop), source (SessionStart),
   * reason (SessionEnd) or notification type: empty or `*` for all, `Write|Edit` for a list of
   * names, anything else a regular expression. UserPromptSubmit and Stop ignore it.
   */
  matcher?: string;
  hooks: ReadonlyArray<CommandHook | HookCallback<E>>;
  /** Seconds a callback of this group may take. Default 60. */
  timeout?: number;
}

/** `{ "PreToolUse": [{ "matcher": "Bash", "hooks": [...] }], … }` */
export type HookSettings = { readonly [E in HookEventName]?: ReadonlyArray<HookMatcher<E>> };

const DEFAULT_HOOK_TIMEOUT_S = 60;

export interface CompiledHandler {
  /** Where it was configured, to name it in warnings (never its command: it may hold a secret). */
  label: string;
  timeoutMs: number;
  hook: CommandHook | HookCallback;
}

export interface CompiledGroup {
  matches: Matcher;
  handlers: readonly CompiledHandler[];
}

export type CompiledHooks = ReadonlyMap<HookEventName, readonly CompiledGroup[]>;

export interface HookSettingsProblem {
  /** Under `hooks`: `['PreToolUse', 0, 'matcher']`. */
  path: ReadonlyArray<string | number>;
  message: string;
}

export interface CheckedHookSettings {
  hooks: CompiledHooks;
  errors: HookSettingsProblem[];
  warnings: HookSettingsProblem[];
}

/** Claude Code events warren does not fire: their hooks are reported and left out. */
const CLAUDE_CODE_ONLY_EVENTS = new Set([
  'PermissionRequest',
  'PermissionDenied',
  'PreCompact',
  'PostCompact',
  'StopFailure',
  'Setup',
  'WorktreeCreate',
  'WorktreeRemove',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'InstructionsLoaded',
  'Elicitation',
  'ElicitationResult',
  'UserPromptExpansion',
  'PostToolBatch',
]);

/** Hook types of Claude Code warren does not run. */
const CLAUDE_CODE_ONLY_TYPES = new Set(['prompt', 'agent', 'http', 'mcp_tool']);

/**
 * Checks a `hooks` value and compiles what is usable.
 * @param options.label names a place for warnings, from its path under `hooks`
 * @param options.callbacks whether functions are allowed (query() options and `defineAgent`)
 */
export function checkHookSettings(
  value: unknown,
  options: { label: (path: ReadonlyArray<string | number>) => string; callbacks: boolean },
): CheckedHookSettings {
  const errors: HookSettingsProblem[] = [];
  const warnings: HookSettingsProblem[] = [];
  const hooks = new Map<HookEventName, CompiledGroup[]>();
  const error = (path: ReadonlyArray<string | number>, message: string) =>
    errors.push({ path, message });
  if (!isRecord(value)) {
    error([], 'must be a map of hook event to a list of matchers, e.g. { "PreToolUse": [ … ] }');
    return { hooks, errors, warnings };
  }
  for (const [event, groups] of Object.entries(value)) {
    if (groups === undefined) continue;
    if (!isHookEvent(event)) {
      if (CLAUDE_CODE_ONLY_EVENTS.has(event)) {
        warnings.push({
          path: [event],
          message: `${event} is a Claude Code event warren does not fire; its hooks are ignored`,
        });
      } else {
        error([event], `unknown hook event "${event}" (warren fires ${HOOK_EVENTS.join(', ')})`);
      }
      continue;
    }
    if (!Array.isArray(groups)) {
      error([event], 'must be a list of { "matcher": "…", "hooks": [ … ] }');
      continue;
    }
    const compiled = groups.flatMap((group, index) =>
      compileGroup(group, [event, index], { ...options, error, warnings }),
    );
    if (compiled.length > 0) hooks.set(event, compiled);
  }
  return { hooks, errors, warnings };
}

interface GroupContext {
  label: (path: ReadonlyArray<string | number>) => string;
  callbacks: boolean;
  error: (path: ReadonlyArray<string | number>, message: string) => void;
  warnings: HookSettingsProblem[];
}

function compileGroup(
  group: unknown,
  path: [string, number],
  context: GroupContext,
): CompiledGroup[] {
  const { error } = context;
  if (!isRecord(group)) {
    error(path, 'must be { "matcher": "…", "hooks": [ … ] }');
    return [];
  }
  let matches: Matcher = () => true;
  if (group.matcher !== undefined && typeof group.matcher !== 'string') {
    error([...path, 'matcher'], 'must be a string: a tool name, `A|B`, or a regular expression');
  } else {
    try {
      matches = compileMatcher(group.matcher);
    } catch (problem) {
      const reason = messageOf(problem);
      error([...path, 'matcher'], `is not a valid regular expression (${reason})`);
    }
  }
  const groupTimeout = seconds(group.timeout, [...path, 'timeout'], error, DEFAULT_HOOK_TIMEOUT_S);
  if (!Array.isArray(group.hooks)) {
    error(
      [...path, 'hooks'],
      'must be a list of hooks, e.g. [{ "type": "command", "command": "…" }]',
    );
    return [];
  }
  const handlers = group.hooks.flatMap((hook, index): CompiledHandler[] => {
    const at = [...path, 'hooks', index];
    const label = context.label(at);
    if (typeof hook === 'function') {
      if (context.callbacks)
        return [{ label, timeoutMs: groupTimeout * 1000, hook: hook as HookCallback }];
      error(at, 'a function is not allowed here: write { "type": "command", "command": "…" }');
      return [];
    }
    if (!isRecord(hook)) {
      error(at, 'must be { "type": "command", "command": "…" }');
      return [];
    }
    if (typeof hook.type === 'string' && CLAUDE_CODE_ONLY_TYPES.has(hook.type)) {
      context.warnings.push({
        path: at,
        message: `hooks of type "${hook.type}" are not run by warren (only "command"); this one is ignored`,
      });
      return [];
    }
    if (hook.type !== 'command') {
      error([...at, 'type'], 'must be "command"');
      return [];
    }
    if (typeof hook.command !== 'string' || hook.command.trim() === '') {
      error([...at, 'command'], 'must be the command to run, a non-empty string');
      return [];
    }
    const timeout = seconds(hook.timeout, [...at, 'timeout'], error, groupTimeout);
    return [{ label, timeoutMs: timeout * 1000, hook: { type: 'command', command: hook.command } }];
  });
  return handlers.length > 0 ? [{ matches, handlers }] : [];
}

function seconds(
  value: unknown,
  path: ReadonlyArray<string | number>,
  error: GroupContext['error'],
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  error(path, 'must be a number of seconds above 0');
  return fallback;
}

function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `PreToolUse[0].hooks[1]` */
export function formatHookPath(path: ReadonlyArray<string | number>): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
}

/**
 * Checks and compiles `hooks`, for a source that must be right as a whole (a settings file,
 * query() options, a definition built by hand).
 * @param where names a place from its path under `hooks`, for errors and hook labels
 * @throws ConfigError for the first bad entry, naming its place and the fix
 */
export function compileHookSettings(
  value: unknown,
  options: { where: (path: ReadonlyArray<string | number>) => string; callbacks: boolean },
): { hooks: CompiledHooks; warnings: string[] } {
  const checked = checkHookSettings(value, { label: options.where, callbacks: options.callbacks });
  const [error] = checked.errors;
  if (error) {
    throw new ConfigError(
      options.where(error.path),
      error.message,
      'hooks look like { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh", "timeout": 60 }] }] }',
    );
  }
  const warnings = checked.warnings.map(
    ({ path, message }) => `${options.where(path)}: ${message}`,
  );
  return { hooks: checked.hooks, warnings };
}
