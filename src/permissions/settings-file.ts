// The settings files (`~/.warren/settings.json`, the project's `.warren/settings.json`,
// `--settings <file>`): read and validated, with errors that name the file, line, column and
// field. Permission rules and the default mode are parsed here; each file's `hooks` section is
// handed on as written, with a way to name its places (hooks/ checks it).

import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import { messageOf } from '../core/error-message.js';
import {
  findNodeAtLocation,
  type JsonNode as Node,
  type JsonParseError as ParseError,
  parseTree,
} from '../core/json-tree.js';
import { lazy } from '../core/lazy.js';
import type { PermissionMode, PermissionRule } from '../core/permission-policy.js';
import { CONFIG_FILE_MAX_BYTES, isRefusedFile, readRegularText } from '../core/regular-file.js';
import { PERMISSION_MODES } from './create-permission-policy.js';
import { parsePermissionRule } from './permission-rule.js';

/** Where a settings file sits, relative to the project folder or the home folder. */
const SETTINGS_FILE = path.join('.warren', 'settings.json');

export interface Settings {
  /** The user's rules first, then the project's, then `--settings`'; each labelled with its file and field. */
  allow: PermissionRule[];
  deny: PermissionRule[];
  /** The last file's `defaultMode` that sets one; undefined when none does. */
  defaultMode: PermissionMode | undefined;
  /** Each file's `hooks`, in the same order: all of them run. */
  hooks: HooksSection[];
}

/** One file's `hooks` as written. */
export interface HooksSection {
  value: unknown;
  /** `file:line:column hooks.PreToolUse[0]` for a path under `hooks`. */
  where(path: readonly (string | number)[]): string;
}

export interface LoadSettingsOptions {
  projectDir: string;
  /** Also read `<homeDir>/.warren/settings.json`; the project's file takes precedence. */
  homeDir?: string;
  /** A file named on the command line (`--settings`): it must exist, and takes precedence. */
  settingsFile?: string;
}

const SHAPE =
  'the file looks like { "permissions": { "allow": ["Read", "Bash(npm test:*)"], "deny": ["Edit(.env)"], "defaultMode": "default" } }';

// Only `permissions` is strict: other top-level keys belong to other features of the same file.
/** Made on first use: a run without settings files never needs it. */
const settingsSchema = lazy(() =>
  z.looseObject({
    permissions: z
      .strictObject({
        allow: z.array(z.string()).optional(),
        deny: z.array(z.string()).optional(),
        defaultMode: z.enum(PERMISSION_MODES).optional(),
      })
      .optional(),
    hooks: z.unknown().optional(),
  }),
);

/**
 * Reads the settings files that exist; a missing file adds nothing.
 * @throws ConfigError naming `file:line:column` and the field for invalid JSON, a wrong field or
 * a rule that does not parse.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<Settings> {
  return mergeSettings(await readSettingsFiles(options));
}

/** Who wrote a settings file: the person (their home, `--settings`) or the project's repository. */
export type SettingsScope = 'user' | 'project' | 'flag';

/** One settings file that exists, read and checked on its own. */
export interface SettingsFile {
  file: string;
  scope: SettingsScope;
  settings: Settings;
}

/**
 * Each settings file that exists, in precedence order (user, project, `--settings`), so a caller
 * can leave out what an untrusted project's file would widen before merging them.
 * @throws ConfigError as loadSettings does
 */
export async function readSettingsFiles(options: LoadSettingsOptions): Promise<SettingsFile[]> {
  const files: { file: string; scope: SettingsScope }[] = [];
  if (options.homeDir !== undefined) {
    files.push({ file: path.join(options.homeDir, SETTINGS_FILE), scope: 'user' });
  }
  // Run from the home folder, the project's file is the user's own: read once, as the user's.
  const project = path.join(options.projectDir, SETTINGS_FILE);
  if (!files.some(({ file }) => file === project)) files.push({ file: project, scope: 'project' });
  if (options.settingsFile !== undefined) {
    files.push({ file: options.settingsFile, scope: 'flag' });
  }
  const read: SettingsFile[] = [];
  for (const { file, scope } of files) {
    const settings = await readSettingsFile(file, { required: scope === 'flag' });
    if (settings) read.push({ file, scope, settings });
  }
  return read;
}

/** The files' settings as one: rules and hooks added up in order, the last `defaultMode` wins. */
export function mergeSettings(files: readonly SettingsFile[]): Settings {
  const merged: Settings = { allow: [], deny: [], defaultMode: undefined, hooks: [] };
  for (const { settings } of files) {
    merged.allow.push(...settings.allow);
    merged.deny.push(...settings.deny);
    merged.defaultMode = settings.defaultMode ?? merged.defaultMode;
    merged.hooks.push(...settings.hooks);
  }
  return merged;
}

async function readSettingsFile(
  file: string,
  { required }: { required: boolean },
): Promise<Settings | undefined> {
  const text = await readText(file, required);
  if (text === undefined || text.trim() === '') return undefined;
  const { value, tree } = parseJson(text, file);
  const parsed = settingsSchema().safeParse(value);
  if (!parsed.success) throw fieldError(parsed.error.issues, { file, text, tree });
  const { allow = [], deny = [], defaultMode } = parsed.data.permissions ?? {};
  const rules = (list: readonly string[], field: 'allow' | 'deny') =>
    list.map((rule, i) => {
      const where = locate({ file, text, tree }, ['permissions', field, i]);
      return parsePermissionRule(rule, `${where} permissions.${field}[${i}]`);
    });
  const hooks = parsed.data.hooks;
  const where = (fieldPath: readonly (string | number)[]) =>
    `${locate({ file, text, tree }, ['hooks', ...fieldPath])} ${formatFieldPath(['hooks', ...fieldPath])}`;
  return {
    allow: rules(allow, 'allow'),
    deny: rules(deny, 'deny'),
    defaultMode,
    hooks: hooks === undefined ? [] : [{ value: hooks, where }],
  };
}

async function readText(file: string, required: boolean): Promise<string | undefined> {
  try {
    return await readRegularText(file, { maxBytes: CONFIG_FILE_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(file, error.problem, error.fix);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (!required) return undefined;
      throw new ConfigError(
        `--settings ${file}`,
        'no such file',
        'give the path of a settings file',
      );
    }
    const reason = messageOf(error);
    throw new ConfigError(
      file,
      `cannot be read: ${reason}`,
      'make it a readable file or remove it',
    );
  }
}

/** JSON.parse decides what is valid and says what is wrong; the syntax tree gives positions. */
function parseJson(text: string, file: string): { value: unknown; tree: Node | undefined } {
  try {
    return { value: JSON.parse(text), tree: parseTree(text) };
  } catch (error) {
    const errors: ParseError[] = [];
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
    const reason = messageOf(error)
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (?:\.\.\.)?".*$/s, '');
    throw new ConfigError(
      `${file}:${lineAndColumn(text, errors[0]?.offset ?? text.length)}`,
      `not valid JSON: ${reason}`,
      'settings files are strict JSON: double-quoted names and strings, no comments, no trailing commas',
    );
  }
}

interface SettingsText {
  file: string;
  text: string;
  tree: Node | undefined;
}

function fieldError(issues: readonly z.core.$ZodIssue[], source: SettingsText): ConfigError {
  const issue = issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const fieldPath = [...issue.path.filter((key) => typeof key !== 'symbol'), ...keys.slice(0, 1)];
  const field = formatFieldPath(fieldPath) || 'the settings';
  const where = locate(source, fieldPath);
  if (issue.code === 'unrecognized_keys') {
    return new ConfigError(
      where,
      `${field} is not a known field`,
      `remove it or fix its spelling; ${SHAPE}`,
    );
  }
  if (issue.code === 'invalid_value') {
    return new ConfigError(
      where,
      `${field}: ${issue.message}`,
      `use one of: ${PERMISSION_MODES.join(', ')}`,
    );
  }
  return new ConfigError(where, `${field}: ${issue.message}`, SHAPE);
}

/** `file:line:column` of the field, or of the nearest enclosing field the file has. */
function locate(source: SettingsText, fieldPath: readonly (string | number)[]): string {
  for (let depth = fieldPath.length; depth > 0 && source.tree; depth--) {
    const node = findNodeAtLocation(source.tree, fieldPath.slice(0, depth));
    if (!node) continue;
    // Point at the key of an object member, where a person looks for it.
    const start = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return `${source.file}:${lineAndColumn(source.text, start)}`;
  }
  return `${source.file}:1:1`;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/** `permissions.allow[2]` */
function formatFieldPath(fieldPath: readonly (string | number)[]): string {
  return fieldPath
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
}
