// Permission rules as people write them (`Read`, `Bash(npm test:*)`, `Edit(src/**)`, `mcp__fs__*`):
// parsing them from a flag or a settings entry, and matching them against one tool call.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../core/config-error.js';
import type { PermissionRule } from '../core/permission-policy.js';

type Picomatch = typeof import('picomatch');
let picomatchModule: Picomatch | undefined;

/** picomatch (six CommonJS files) loads with the first path rule matched, not with every run. */
function picomatch(...args: Parameters<Picomatch>): ReturnType<Picomatch> {
  picomatchModule ??= createRequire(import.meta.url)('picomatch') as Picomatch;
  return picomatchModule(...args);
}

/** One tool call as rules see it. */
export interface PermissionTarget {
  toolName: string;
  /** The tool's `permissionSubject`: a Bash command, a path relative to cwd; absent when it has none. */
  subject: string | undefined;
  cwd: string;
}

/** Tools whose subject is a file path, matched with gitignore-style globs. */
const PATH_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'NotebookEdit',
]);

/** Claude Code renamed Task to Agent; settings written for it still say Task. */
const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = { Task: 'Agent' };

const TOOL_NAME = /^[\w.*-]+$/;

/**
 * Parses one rule, e.g. a settings entry. Text after the first `(` up to the final `)` is the
 * specifier, so it may itself hold parentheses, commas and spaces.
 */
export function parsePermissionRule(text: string, source: string): PermissionRule {
  const rule = text.trim();
  const open = rule.indexOf('(');
  const name = open === -1 ? rule : rule.slice(0, open).trim();
  if (name === '') {
    throw new ConfigError(
      source,
      `rule "${text}" has no tool name`,
      'write a tool name, optionally followed by a specifier in parentheses: Read, Bash(npm test:*), Edit(src/**)',
    );
  }
  if (!TOOL_NAME.test(name)) {
    throw new ConfigError(
      source,
      `rule "${text}" has an invalid tool name "${name}"`,
      'tool names hold only letters, digits, "_", "-", "." and "*"; put one rule per entry and arguments in parentheses, e.g. Bash(npm test:*)',
    );
  }
  const toolName = TOOL_NAME_ALIASES[name] ?? name;
  if (open === -1) return { text: rule, toolName, source };
  if (!rule.endsWith(')')) {
    if (rule.includes(')', open)) {
      throw new ConfigError(
        source,
        `rule "${text}" has text after its closing ")"`,
        'put everything to match inside the parentheses, and separate rules with commas',
      );
    }
    throw new ConfigError(
      source,
      `rule "${text}" has no closing ")"`,
      `close the parentheses at the end of the rule: ${rule})`,
    );
  }
  const specifier = rule.slice(open + 1, -1).trim();
  if (specifier === '') {
    throw new ConfigError(
      source,
      `rule "${text}" has empty parentheses`,
      `write ${name} to match every call of the tool, or put what to match inside the parentheses`,
    );
  }
  if (toolName === 'Bash') checkBashSpecifier(specifier, text, source);
  if (toolName === 'WebFetch') {
    return { text: rule, toolName, specifier: webFetchSpecifier(specifier, text, source), source };
  }
  return { text: rule, toolName, specifier, source };
}

/**
 * Parses the rules of one flag value. Like Claude Code's `--allowedTools`, rules are separated by
 * commas or spaces; both belong to the specifier inside parentheses:
 * `Bash(git log --format=%h,%s),Read Edit`.
 */
export function parseRuleList(text: string, source: string): PermissionRule[] {
  const rules: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      rules.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  rules.push(current);
  return rules
    .filter((rule) => rule.trim() !== '')
    .map((rule) => parsePermissionRule(rule, source));
}

/** The first rule that matches the call or, for a compound Bash command, any part of it. */
export function findDenyingRule(
  rules: readonly PermissionRule[],
  target: PermissionTarget,
): PermissionRule | undefined {
  const privateHost = target.toolName === 'WebFetch' && target.subject?.startsWith('private:');
  if (privateHost) {
    // A private destination needs its own allow rule, but a domain's deny rule still holds.
    const asDomain = { ...target, subject: `domain:${target.subject!.slice('private:'.length)}` };
    return rules.find((rule) => matchesCall(rule, target) || matchesCall(rule, asDomain));
  }
  if (target.toolName !== 'Bash' || target.subject === undefined) {
    return rules.find((rule) => matchesCall(rule, target));
  }
  // A part is also checked without its leading `VAR=value` assignments, which do not change
  // which program runs: `FOO=1 rm -rf x` is still `rm`.
  const parts = splitCommand(target.subject).parts.flatMap((part) => {
    const program = part.replace(/^(?:\w+=\S*\s+)+/, '');
    return program === part ? [part] : [part, program];
  });
  return rules.find(
    (rule) =>
      matchesCall(rule, target) ||
      parts.some((part) => matchesCall(rule, { ...target, subject: part })),
  );
}

/** Ask rules cover a call as deny rules do: the whole call, or any part of a compound command. */
export const findAskingRule = findDenyingRule;

/**
 * Whether the rules allow the call. A compound Bash command (`a && b`, `a; b`, `a | b`) is allowed
 * only if every part is allowed, by any of the rules; one with command substitution (`$(…)`,
 * backticks) only by a rule for the tool as a whole or for exactly that command, because a
 * prefix rule cannot see what the substitution runs.
 */
export function isAllowedByRules(
  rules: readonly PermissionRule[],
  target: PermissionTarget,
): boolean {
  if (target.toolName !== 'Bash' || target.subject === undefined) {
    return rules.some((rule) => matchesCall(rule, target));
  }
  const command = target.subject.trim();
  const bashRules = rules.filter((rule) => matchesToolName(rule.toolName, 'Bash'));
  const wholeTool = (rule: PermissionRule) =>
    rule.specifier === undefined || rule.specifier === '*';
  if (bashRules.some((rule) => wholeTool(rule) || rule.specifier === command)) {
    return true;
  }
  const { parts, hasSubstitution } = splitCommand(command);
  if (hasSubstitution || parts.length === 0) return false;
  return parts.every((part) => bashRules.some((rule) => matchesBash(rule.specifier, part)));
}

/** How a call is shown to people: `Bash(npm test)`, `Edit(src/a.ts)`, `Agent`. */
export function describeCall(target: Pick<PermissionTarget, 'toolName' | 'subject'>): string {
  return target.subject === undefined ? target.toolName : `${target.toolName}(${target.subject})`;
}

export interface SuggestedRules {
  /** Matches this call and as little else as the rule syntax allows. */
  exact: string;
  /** The command's first word for Bash (`Bash(rm:*)`), the file's folder for file tools (`Edit(src/**)`). */
  broader?: string;
}

/** Rules a person may give to allow this call, e.g. to remember an "always allow". */
export function suggestRules(target: PermissionTarget): SuggestedRules {
  const { toolName, subject } = target;
  if (subject === undefined) return { exact: toolName };
  if (PATH_TOOLS.has(toolName)) {
    const folder = path.dirname(subject);
    const exact = `${toolName}(${pathSpecifier(subject, { anchor: true })})`;
    if (folder === '.' || folder === path.parse(folder).root) return { exact };
    return { exact, broader: `${toolName}(${pathSpecifier(folder, { anchor: false })}/**)` };
  }
  const exact = `${toolName}(${subject.trim()})`;
  if (toolName !== 'Bash') return { exact };
  const { parts, hasSubstitution } = splitCommand(subject);
  const words = parts[0]?.split(/\s+/) ?? [];
  if (parts.length !== 1 || hasSubstitution || words.length < 2) return { exact };
  return { exact, broader: `Bash(${words[0]}:*)` };
}

/**
 * A path as a rule specifier that matches that path: glob characters escaped, an absolute path
 * written `//abs`, and with `anchor` a bare name written `./name` so it does not match that name
 * in every folder.
 */
function pathSpecifier(filePath: string, options: { anchor: boolean }): string {
  const escaped = filePath.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
  if (path.isAbsolute(filePath)) return `/${escaped}`;
  if (options.anchor && !filePath.includes('/')) return `./${escaped}`;
  return escaped;
}

function matchesCall(rule: PermissionRule, target: PermissionTarget): boolean {
  if (!matchesCallIgnoringExceptions(rule, target)) return false;
  return !rule.except?.some((exception) => matchesCallIgnoringExceptions(exception, target));
}

function matchesCallIgnoringExceptions(rule: PermissionRule, target: PermissionTarget): boolean {
  if (!matchesToolName(rule.toolName, target.toolName)) return false;
  if (rule.specifier === undefined || rule.specifier === '*') return true;
  if (target.subject === undefined) return false;
  if (target.toolName === 'Bash') return matchesBash(rule.specifier, target.subject.trim());
  if (PATH_TOOLS.has(target.toolName)) {
    return matchesPath(rule.specifier, target.subject, target.cwd);
  }
  return wildcard(rule.specifier).test(target.subject);
}

function matchesToolName(ruleName: string, toolName: string): boolean {
  if (ruleName === toolName) return true;
  if (ruleName.includes('*')) return wildcard(ruleName).test(toolName);
  // `mcp__fs` names a whole MCP server, as in Claude Code.
  return ruleName.startsWith('mcp__') && toolName.startsWith(`${ruleName}__`);
}

function checkBashSpecifier(specifier: string, text: string, source: string): void {
  const prefixMarker = specifier.indexOf(':*');
  if (prefixMarker !== -1 && prefixMarker !== specifier.length - 2) {
    throw new ConfigError(
      source,
      `rule "${text}" has ":*" before the end`,
      `":*" marks a command prefix and goes last, e.g. Bash(${specifier.slice(0, prefixMarker)}:*); use "*" for a wildcard inside a command`,
    );
  }
}

/**
 * WebFetch rules name a host: `domain:example.com` (also `domain:*.example.com`) for public
 * addresses, `private:localhost` for a host on the local network. Host names are matched in
 * lower case, as URLs carry them.
 */
function webFetchSpecifier(specifier: string, text: string, source: string): string {
  if (specifier === '*') return specifier;
  const match = /^(domain|private):(\S+)$/i.exec(specifier);
  if (!match) {
    throw new ConfigError(
      source,
      `rule "${text}" does not name a host`,
      'write WebFetch(domain:example.com) for a public host, WebFetch(private:localhost) for one on the local network, or WebFetch for every fetch',
    );
  }
  return `${match[1]!.toLowerCase()}:${match[2]!.toLowerCase()}`;
}

/**
 * `npm test:*`: the command is `npm test` or starts with it followed by a space. With `*`
 * elsewhere, a wildcard; a trailing ` *` also matches the bare command. Otherwise exact.
 */
function matchesBash(specifier: string | undefined, command: string): boolean {
  if (specifier === undefined || specifier === '*') return true;
  if (specifier.endsWith(':*')) {
    const prefix = specifier.slice(0, -2).trim();
    return (
      command === prefix || (command.startsWith(prefix) && /^\s/.test(command.slice(prefix.length)))
    );
  }
  if (!specifier.includes('*')) return command === specifier;
  if (specifier.endsWith(' *') && command === specifier.slice(0, -2).trim()) return true;
  return wildcard(specifier).test(command);
}

interface SplitCommand {
  /** The simple commands, trimmed, in order; command substitutions' contents among them. */
  parts: string[];
  hasSubstitution: boolean;
}

/**
 * Splits a shell command at `&&`, `||`, `;`, `|`, `&`, newlines, parentheses and substitutions,
 * outside quotes. Not a shell parser: where it errs, it errs towards asking (an allow rule misses
 * a part) rather than allowing. Deny rules on Bash guard against mistakes, not against an agent
 * that disguises a command (`sh -c "…"`, `eval`).
 */
function splitCommand(command: string): SplitCommand {
  const parts: string[] = [];
  let hasSubstitution = false;
  let current = '';
  let quote: "'" | '"' | undefined;
  const cut = () => {
    if (current.trim() !== '') parts.push(current.trim());
    current = '';
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    const next = command[i + 1];
    if (char === '\\' && quote !== "'") {
      current += char + (next ?? '');
      i += 1;
      continue;
    }
    if (quote === "'") {
      if (char === "'") quote = undefined;
      current += char;
      continue;
    }
    const substitution =
      char === '`' ||
      (char === '$' && next === '(') ||
      ((char === '<' || char === '>') && next === '(');
    if (substitution) {
      hasSubstitution = true;
      cut();
      if (char !== '`') i += 1;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
      continue;
    }
    const redirection = char === '&' && (next === '>' || /[<>]$/.test(current));
    if (redirection || !';&|\n()'.includes(char)) {
      current += char;
      continue;
    }
    cut();
  }
  cut();
  return { parts, hasSubstitution };
}

/**
 * Gitignore-style path matching: a pattern without a slash matches a file or folder name at any
 * depth (`Read(*.md)`, `Read(.env)`); one with a slash is anchored at cwd (`Edit(src/**)`,
 * `./src/**`, and `/src/**` as in Claude Code, where a single leading slash means the project
 * root). `//abs/**` is an absolute path, `~/x` is under the home folder. A pattern that matches
 * a folder matches everything inside it.
 */
function matchesPath(specifier: string, subject: string, cwd: string): boolean {
  const target = path.resolve(cwd, subject);
  const { base, pattern } = anchorPattern(specifier, cwd);
  const folderOnly = pattern.endsWith('/');
  const isMatch = picomatch(pattern.replace(/\/+$/, ''), { dot: true });
  const relative = path.relative(base ?? cwd, target);
  const segments = relative.split(path.sep);
  const couldBeFolder = (i: number) => !folderOnly || i < segments.length - 1;
  if (base === undefined) {
    // Names below the common ancestor of cwd and the path, so `Read(.env)` also covers a
    // sibling project's .env, yet a folder above cwd (`/home`) never matches.
    return segments.some((name, i) => name !== '..' && couldBeFolder(i) && isMatch(name));
  }
  if (relative === '' || segments[0] === '..' || path.isAbsolute(relative)) return false;
  return segments.some((_, i) => couldBeFolder(i) && isMatch(segments.slice(0, i + 1).join('/')));
}

/** Where an anchored pattern starts; `base` is undefined for a pattern that matches any name. */
function anchorPattern(specifier: string, cwd: string): { base?: string; pattern: string } {
  if (specifier.startsWith('//')) return { base: '/', pattern: specifier.slice(2) };
  if (specifier === '~') return { base: homedir(), pattern: '**' };
  if (specifier.startsWith('~/')) return { base: homedir(), pattern: specifier.slice(2) };
  if (specifier.startsWith('./')) return { base: cwd, pattern: specifier.slice(2) };
  if (specifier.startsWith('/')) return { base: cwd, pattern: specifier.slice(1) };
  const parent = /^(?:\.\.\/)+/.exec(specifier)?.[0];
  if (parent) return { base: path.resolve(cwd, parent), pattern: specifier.slice(parent.length) };
  if (specifier.replace(/\/+$/, '').includes('/')) return { base: cwd, pattern: specifier };
  return { pattern: specifier };
}

/** `*` matches any run of characters; everything else is literal. */
function wildcard(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((piece) => piece.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}$`);
}
