// Decides whether a shell command is clearly read-only, for auto-approval and read-only agents.
// Deliberately conservative: anything it cannot vouch for (substitutions, subshells, writes,
// unknown programs) is "not read-only", with the reason.
//
// It trusts the repository's own configuration: `git diff` runs a diff driver from .git/config.
// Writing that file needs Write/Edit permission first, so this check is not the line of defence.

import { homedir } from 'node:os';
import path from 'node:path';
import { isInside } from './allowed-path.js';

export type ReadOnlyVerdict = { readOnly: true } | { readOnly: false; reason: string };

/** Where a command may look: with it, reading outside the allowed directories is not read-only. */
export interface PathScope {
  cwd: string;
  allowedDirs: readonly string[];
}

/** True only for commands that clearly change nothing: `ls`, `cat x | head`, `git status`, … */
export function isReadOnlyCommand(command: string, scope?: PathScope): boolean {
  return checkReadOnlyCommand(command, scope).readOnly;
}

/** Like `isReadOnlyCommand`, with the reason when the answer is no. */
export function checkReadOnlyCommand(command: string, scope?: PathScope): ReadOnlyVerdict {
  const parsed = parseCommandList(command);
  if ('reason' in parsed) return { readOnly: false, reason: parsed.reason };
  if (parsed.commands.length === 0) return { readOnly: false, reason: 'the command is empty' };
  for (const words of parsed.commands) {
    const reason =
      simpleCommandProblem(words) ?? (scope && outsideScopeProblem(words.slice(1), scope));
    if (reason !== undefined) return { readOnly: false, reason };
  }
  return { readOnly: true };
}

/**
 * Arguments are read as paths from cwd (options' `=value` too): a command that would read
 * outside the allowed directories, or whose arguments depend on variables, is not approved
 * without asking. Conservative: a pattern that looks like an absolute path counts as one.
 */
function outsideScopeProblem(args: readonly Word[], scope: PathScope): string | undefined {
  for (const arg of args) {
    if (arg.text.includes('$'))
      return `${arg.text} depends on a variable, so what it reads is unknown`;
    const value = arg.text.startsWith('-') ? arg.text.split('=').slice(1).join('=') : arg.text;
    if (value === '') continue;
    const expanded = value === '~' || value.startsWith('~/') ? homedir() + value.slice(1) : value;
    const target = path.resolve(scope.cwd, expanded);
    if (!scope.allowedDirs.some((dir) => isInside(target, dir))) {
      return `it reads ${arg.text}, outside the allowed directories`;
    }
  }
  return undefined;
}

interface Word {
  text: string;
  /** Its value depends on expansion ($VAR, globs, braces), so the text is not what runs. */
  dynamic: boolean;
}

type ParsedList = { commands: Word[][] } | { reason: string };

const OPERATOR_CHARS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/**
 * Splits a command line at `;`, `&&`, `||`, `|`, `&` and newlines into simple commands, with
 * quotes removed. Refuses what could run or write something hidden from a word-level check.
 */
function parseCommandList(command: string): ParsedList {
  const commands: Word[][] = [];
  let words: Word[] = [];
  let text: string | undefined;
  let dynamic = false;
  const endWord = () => {
    if (text !== undefined) words.push({ text, dynamic });
    text = undefined;
    dynamic = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  const append = (chars: string) => {
    text = (text ?? '') + chars;
  };
  /** Reads a redirection target; only /dev/null and file descriptors are harmless to write. */
  const readTarget = (from: number): { end: number; target: string } => {
    let at = from;
    while (command[at] === ' ' || command[at] === '\t') at++;
    let target = '';
    while (at < command.length && !OPERATOR_CHARS.has(command[at] ?? '')) target += command[at++];
    return { end: at, target };
  };

  for (let at = 0; at < command.length; at++) {
    const char = command[at] ?? '';
    const next = command[at + 1];
    if (char === ' ' || char === '\t') {
      endWord();
    } else if (char === '\n' || char === ';') {
      endCommand();
    } else if (char === '\\') {
      if (next !== '\n') append(next ?? '');
      at++;
    } else if (char === "'") {
      const close = command.indexOf("'", at + 1);
      if (close === -1) return { reason: 'it has an unterminated quote' };
      append(command.slice(at + 1, close));
      at = close;
    } else if (char === '"') {
      const quoted = readDoubleQuoted(command, at + 1);
      if ('reason' in quoted) return quoted;
      append(quoted.text);
      dynamic ||= quoted.dynamic;
      at = quoted.end;
    } else if (char === '`' || (char === '$' && next === '(')) {
      return { reason: 'it uses command substitution ($(…) or backticks), which can run anything' };
    } else if (
      char === '$' ||
      char === '*' ||
      char === '?' ||
      char === '[' ||
      char === '{' ||
      char === '}'
    ) {
      append(char);
      dynamic = true;
    } else if (char === '#' && text === undefined) {
      while (at + 1 < command.length && command[at + 1] !== '\n') at++;
    } else if (char === '(' || char === ')') {
      return { reason: 'it uses a subshell or process substitution' };
    } else if (char === '|') {
      if (next === '|' || next === '&') at++;
      endCommand();
    } else if (char === '&' && next === '>') {
      const { end, target } = readTarget(at + (command[at + 2] === '>' ? 3 : 2));
      if (target !== '/dev/null') return { reason: `it redirects output to a file (&> ${target})` };
      at = end - 1;
    } else if (char === '&') {
      if (next === '&') at++;
      endCommand();
    } else if (char === '>') {
      if (text !== undefined && /^\d+$/.test(text)) text = undefined;
      let from = at + 1;
      if (command[from] === '>' || command[from] === '|') from++;
      const toDescriptor = command[from] === '&';
      const { end, target } = readTarget(toDescriptor ? from + 1 : from);
      const harmless = toDescriptor ? /^(\d+|-)$/.test(target) : target === '/dev/null';
      if (!harmless) return { reason: `it redirects output to a file (> ${target})` };
      at = end - 1;
    } else if (char === '<') {
      if (next === '<' || next === '(' || next === '>') {
        return { reason: 'it uses a here-document or process substitution' };
      }
      if (text !== undefined && /^\d+$/.test(text)) text = undefined;
      at = readTarget(at + 1).end - 1;
    } else {
      append(char);
    }
  }
  endCommand();
  return { commands };
}

function readDoubleQuoted(
  command: string,
  start: number,
): { text: string; dynamic: boolean; end: number } | { reason: string } {
  let text = '';
  let dynamic = false;
  for (let at = start; at < command.length; at++) {
    const char = command[at] ?? '';
    const next = command[at + 1] ?? '';
    if (char === '"') return { text, dynamic, end: at };
    if (char === '`' || (char === '$' && next === '(')) {
      return { reason: 'it uses command substitution ($(…) or backticks), which can run anything' };
    }
    if (char === '\\' && '$`"\\\n'.includes(next)) {
      text += next;
      at++;
      continue;
    }
    if (char === '$') dynamic = true;
    text += char;
  }
  return { reason: 'it has an unterminated quote' };
}

type ArgumentCheck = (args: readonly Word[]) => string | undefined;

const anyArguments: ArgumentCheck = () => undefined;

/**
 * Options that make an otherwise read-only program write or run something. `--long` also
 * refuses its abbreviations (GNU tools accept them), `-x` refuses the letter in a flag cluster,
 * and `-word` (find) must match exactly. Expanded words could become such an option: refused.
 */
function refusing(program: string, options: readonly string[]): ArgumentCheck {
  return (args) => {
    for (const arg of args) {
      if (arg.dynamic) return `an argument of ${program} depends on expansion (${arg.text})`;
      const hit = options.find((option) => optionMatches(arg.text, option));
      if (hit !== undefined) return `${program} ${hit} can write files or run programs`;
    }
    return undefined;
  };
}

function optionMatches(arg: string, option: string): boolean {
  if (option.startsWith('--')) {
    const name = arg.split('=')[0] ?? '';
    return name.length > 2 && name.startsWith('--') && option.startsWith(name);
  }
  if (option.length === 2) return /^-[^-]/.test(arg) && arg.includes(option.slice(1));
  return arg === option;
}

const READ_ONLY_PROGRAMS = new Map<string, ArgumentCheck>([
  ...[
    'basename cat cd cksum cmp column comm cut df diff dirname du echo egrep false fgrep grep head',
    'id jq ls md5sum nl nproc printf pwd readlink realpath rev seq sha1sum sha256sum',
    'sha512sum stat strings tac tail test tr true type uname wc which whoami',
  ]
    .join(' ')
    .split(' ')
    .map((name): [string, ArgumentCheck] => [name, anyArguments]),
  ['date', refusing('date', ['-s', '--set'])],
  ['file', refusing('file', ['-C', '--compile'])],
  [
    'find',
    refusing('find', [
      '-exec',
      '-execdir',
      '-ok',
      '-okdir',
      '-delete',
      '-fprint',
      '-fprint0',
      '-fprintf',
      '-fls',
    ]),
  ],
  ['rg', refusing('rg', ['--pre'])],
  ['sort', refusing('sort', ['-o', '--output', '--compress-program'])],
  ['tree', refusing('tree', ['-o'])],
  ['uniq', uniqArguments],
  ['git', gitArguments],
]);

function simpleCommandProblem(words: readonly Word[]): string | undefined {
  const [program, ...args] = words;
  if (program === undefined) return undefined;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(program.text)) {
    return 'it sets environment variables, which can change what a program does';
  }
  if (program.dynamic) return `the program name depends on expansion (${program.text})`;
  const check = READ_ONLY_PROGRAMS.get(program.text);
  if (check === undefined) return `\`${program.text}\` is not a command known to be read-only`;
  return check(args);
}

/** `uniq IN OUT` writes OUT; one operand at most. */
function uniqArguments(args: readonly Word[]): string | undefined {
  const operands = args.filter((arg) => !arg.text.startsWith('-'));
  return operands.length > 1 ? 'uniq with two file operands writes the second one' : undefined;
}

const GIT_ANY_ARGUMENTS = new Set([
  'blame',
  'cat-file',
  'describe',
  'diff',
  'grep',
  'log',
  'ls-files',
  'ls-tree',
  'rev-list',
  'rev-parse',
  'shortlog',
  'show',
  'status',
]);
/** Subcommands that are read-only only in some forms, e.g. `git branch` lists but `git branch x` creates. */
const GIT_FORM_CHECKS = new Map<string, ArgumentCheck>([
  [
    'branch',
    listingOnly('branch', [
      '-a',
      '-r',
      '-v',
      '-vv',
      '--all',
      '--remotes',
      '--verbose',
      '--show-current',
      '--no-color',
    ]),
  ],
  ['tag', listingOnly('tag', ['-n'])],
  ['config', firstArgumentIn('config', ['--get', '--get-all', '--get-regexp', '--list', '-l'])],
  ['reflog', firstArgumentIn('reflog', [undefined, 'show'])],
  ['remote', remoteArguments],
  ['stash', firstArgumentIn('stash', ['list', 'show'])],
  ['worktree', firstArgumentIn('worktree', ['list'])],
]);
const GIT_WRITING_OPTIONS = ['--output', '-O', '--open-files-in-pager'];

function gitArguments(args: readonly Word[]): string | undefined {
  let rest = [...args];
  // `-C <dir>` and `--no-pager` change nothing; `-c` could set a pager or hook: refused.
  for (;;) {
    const first = rest[0]?.text;
    if (first === '--no-pager') rest = rest.slice(1);
    else if (first === '-C' && rest.length > 1) rest = rest.slice(2);
    else break;
  }
  const [subcommand, ...subArgs] = rest;
  if (subcommand === undefined) return 'git without a subcommand';
  if (subcommand.text.startsWith('-')) return `git ${subcommand.text} before the subcommand`;
  const dynamic = rest.find((word) => word.dynamic);
  if (dynamic !== undefined) return `an argument of git depends on expansion (${dynamic.text})`;
  const writing = subArgs.find((arg) =>
    GIT_WRITING_OPTIONS.some((option) => optionMatches(arg.text, option)),
  );
  if (writing !== undefined) {
    return `git ${subcommand.text} ${writing.text} writes files or runs a program`;
  }
  if (GIT_ANY_ARGUMENTS.has(subcommand.text)) return undefined;
  const check = GIT_FORM_CHECKS.get(subcommand.text);
  if (check === undefined) return `\`git ${subcommand.text}\` is not known to be read-only`;
  return check(subArgs);
}

/** Only listing flags, and names only as patterns after `-l`/`--list` (else they create). */
function listingOnly(subcommand: string, listingFlags: readonly string[]): ArgumentCheck {
  const allowed = new Set([...listingFlags, '-l', '--list']);
  return (args) => {
    const flag = args.find((arg) => arg.text.startsWith('-') && !allowed.has(arg.text));
    if (flag !== undefined) return `git ${subcommand} ${flag.text} is not a listing option`;
    const listing = args.some((arg) => arg.text === '-l' || arg.text === '--list');
    const name = args.find((arg) => !arg.text.startsWith('-'));
    if (name !== undefined && !listing) {
      return `git ${subcommand} ${name.text} creates a ${subcommand}`;
    }
    return undefined;
  };
}

/** `git remote [-v]` lists and `get-url` reads; every other form changes the remotes. */
function remoteArguments(args: readonly Word[]): string | undefined {
  const [first, ...more] = args;
  if (first?.text !== '-v' && first?.text !== '--verbose') {
    return firstArgumentIn('remote', [undefined, 'get-url'])(args);
  }
  return more.length === 0 ? undefined : firstArgumentIn('remote -v', [undefined])(more);
}

/** Read-only when the first argument is one of `forms` (undefined: no arguments at all). */
function firstArgumentIn(
  subcommand: string,
  forms: readonly (string | undefined)[],
): ArgumentCheck {
  return (args) => {
    const first = args[0]?.text;
    if (forms.includes(first)) return undefined;
    return `\`git ${subcommand}${first === undefined ? '' : ` ${first}`}\` is not known to be read-only`;
  };
}
