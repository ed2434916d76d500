// The programs the read-only check knows, and what each does with its arguments: which ones
// name files it opens, which options make it write, run something or follow symlinks.
// `git` and `cd` need more than arguments and live in read-only-git.ts and read-only-command.ts.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface ProgramRule {
  /** Its arguments may name files it opens; each one is checked against the allowed directories. */
  readsFiles: boolean;
  /** Why these arguments make it write, run a program, or read files its arguments do not name. */
  problem?(args: readonly string[]): string | undefined;
  /** Whether, with these arguments, it follows symlinks it meets inside the directories it reads. */
  followsLinks?(args: readonly string[]): boolean;
  /** With no directory among its arguments, it walks the working directory (`grep -R x`, `find`). */
  walksCwd?: boolean;
}

/** Programs whose whole job is to show the environment, where API keys live. */
export const ENVIRONMENT_READERS: ReadonlySet<string> = new Set([
  'env',
  'printenv',
  'set',
  'export',
  'declare',
  'typeset',
  'compgen',
  'local',
  'readonly',
]);

const PRINTS_ONLY: ProgramRule = { readsFiles: false };
const READS_FILES: ProgramRule = { readsFiles: true };

/**
 * Options that make an otherwise read-only program write, run something, or read the names of
 * further files from a file. `--long` also refuses its abbreviations (GNU tools accept them),
 * `-x` refuses the letter anywhere in a flag cluster, and `-word` (find) must match exactly.
 */
function refusing(
  program: string,
  options: readonly string[],
): (args: readonly string[]) => string | undefined {
  return (args) => {
    for (const arg of args) {
      const hit = options.find((option) => optionMatches(arg, option));
      if (hit !== undefined)
        return `${program} ${hit} can write files, run programs or read files it is not given`;
    }
    return undefined;
  };
}

export function optionMatches(arg: string, option: string): boolean {
  if (option.startsWith('--')) {
    const name = arg.split('=')[0] ?? '';
    return name.length > 2 && name.startsWith('--') && option.startsWith(name);
  }
  if (option.length === 2) return /^-[^-]/.test(arg) && arg.includes(option.slice(1));
  return arg === option;
}

/** Whether any short-option cluster holds one of `letters`, or a long option starts with one of `longPrefixes`. */
function hasOption(
  args: readonly string[],
  letters: string,
  longPrefixes: readonly string[] = [],
): boolean {
  return args.some(
    (arg) =>
      (/^-[^-]/.test(arg) && [...letters].some((letter) => arg.includes(letter))) ||
      longPrefixes.some((prefix) => arg.startsWith(prefix)),
  );
}

const checksum = refusing('the checksum tool', ['-c', '--check']);

export const READ_ONLY_PROGRAMS: ReadonlyMap<string, ProgramRule> = new Map<string, ProgramRule>([
  ...'basename dirname echo printf seq true false pwd uname id whoami nproc type which'
    .split(' ')
    .map((name): [string, ProgramRule] => [name, PRINTS_ONLY]),
  ...'cat cmp column comm cut df head nl readlink realpath rev stat tac tail test tr'
    .split(' ')
    .map((name): [string, ProgramRule] => [name, READS_FILES]),
  ...'cksum md5sum sha1sum sha256sum sha512sum'
    .split(' ')
    .map((name): [string, ProgramRule] => [name, { readsFiles: true, problem: checksum }]),
  ['wc', { readsFiles: true, problem: refusing('wc', ['--files0-from']) }],
  ['date', { readsFiles: true, problem: refusing('date', ['-s', '--set']) }],
  [
    'file',
    { readsFiles: true, problem: refusing('file', ['-C', '--compile', '-f', '--files-from']) },
  ],
  [
    'sort',
    {
      readsFiles: true,
      problem: refusing('sort', [
        '-o',
        '--output',
        '--compress-program',
        '-T',
        '--temporary-directory',
        '--files0-from',
      ]),
    },
  ],
  ['uniq', { readsFiles: true, problem: uniqProblem }],
  ['strings', { readsFiles: true, problem: stringsProblem }],
  ['jq', { readsFiles: true, problem: jqProblem }],
  // GNU diff reads what symlinks point to, in the directories it compares too.
  ['diff', { readsFiles: true, followsLinks: () => true }],
  ...['grep', 'egrep', 'fgrep'].map((name): [string, ProgramRule] => [
    name,
    {
      readsFiles: true,
      problem: () =>
        process.env.GREP_OPTIONS
          ? 'GREP_OPTIONS is set, so grep takes options not shown'
          : undefined,
      // -r follows only the links it is given; -R (GNU) and -S (BSD) follow every link.
      followsLinks: (args) => hasOption(args, 'RSO', ['--de']),
      walksCwd: true,
    },
  ]),
  [
    'rg',
    {
      readsFiles: true,
      problem: (args) =>
        process.env.RIPGREP_CONFIG_PATH
          ? 'RIPGREP_CONFIG_PATH is set, so rg takes options (perhaps --pre) not shown'
          : refusing('rg', ['--pre', '--hostname-bin'])(args),
      followsLinks: (args) => hasOption(args, 'L') || args.includes('--follow'),
      walksCwd: true,
    },
  ],
  [
    'find',
    {
      readsFiles: true,
      problem: refusing('find', [
        '-exec',
        '-execdir',
        '-ok',
        '-okdir',
        '-delete',
        '-fprint',
        '-fprint0',
        '-fprintf',
        '-fls',
        '-files0-from',
      ]),
      followsLinks: (args) => args.some((arg) => /^-[HLP]*L[HLP]*$/.test(arg) || arg === '-follow'),
      walksCwd: true,
    },
  ],
  [
    'ls',
    { readsFiles: true, followsLinks: (args) => hasOption(args, 'L', ['--de']), walksCwd: true },
  ],
  [
    'du',
    {
      readsFiles: true,
      problem: refusing('du', ['--files0-from']),
      followsLinks: (args) => hasOption(args, 'L', ['--de']),
      walksCwd: true,
    },
  ],
  [
    'tree',
    {
      readsFiles: true,
      // -R with -H writes an index file into every directory.
      problem: refusing('tree', ['-o', '-R']),
      followsLinks: (args) => hasOption(args, 'l'),
      walksCwd: true,
    },
  ],
]);

/** `uniq IN OUT` writes OUT; one operand at most. */
function uniqProblem(args: readonly string[]): string | undefined {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  return operands.length > 1 ? 'uniq with two file operands writes the second one' : undefined;
}

/** binutils read more arguments from `@file`, and so files that the command does not name. */
function stringsProblem(args: readonly string[]): string | undefined {
  const atFile = args.find((arg) => arg.startsWith('@'));
  return atFile === undefined ? undefined : `strings ${atFile} reads further arguments from a file`;
}

/**
 * jq can print the environment (`env`, `$ENV`) and load code from files (`import`, `include`,
 * `-f`, and `~/.jq`, which it reads by itself). `.env` is a field, not the builtin.
 */
const JQ_REACHES_OUT =
  /\$ENV|\$__prog|(?<![\w$.])env(?!\w)|\b(?:import|include|modulemeta|get_search_list|get_prog_origin|get_jq_origin)\b/;

function jqProblem(args: readonly string[]): string | undefined {
  const reaching = args.find((arg) => JQ_REACHES_OUT.test(arg));
  if (reaching !== undefined) {
    return `jq ${reaching} can read the environment (API keys) or load files; it is never read-only`;
  }
  const fromFile = refusing('jq', ['-f', '--from-file'])(args);
  if (fromFile !== undefined) return 'jq -f runs a program from a file that is not shown';
  if (existsSync(path.join(process.env.HOME ?? homedir(), '.jq'))) {
    return 'jq loads ~/.jq, outside the allowed directories, on every run';
  }
  return undefined;
}
