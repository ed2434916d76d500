// Whether a shell command an isolated agent runs would act outside its worktree: `cd` out of it,
// git pointed elsewhere (`git -C`, `--git-dir`, `--work-tree`, GIT_DIR=, GIT_WORK_TREE=), or a
// path into the main checkout (absolute, `..`, or through a symlink). A guard against the common
// ways out, not a sandbox: what a script does inside is not seen.
import { homedir } from 'node:os';
import path from 'node:path';
import { isInside, realDir } from '../tools/allowed-path.js';
import { type ShellWord, type SimpleCommand, splitShellCommands } from './shell-words.js';

export interface CommandScope {
  /** Where the command starts. */
  cwd: string;
  /** The agent's worktree, as a real path. */
  worktree: string;
  /** Real paths the agent must not reach: the main checkout, the parent's, the git directory. */
  protectedDirs: readonly string[];
}

/** What one simple command says about where it goes, before any path is resolved. */
interface Reading {
  /** Reasons found from the words alone: a git redirect, a `cd` to somewhere unknown. */
  problems: string[];
  /** The literal target of a `cd` or `pushd`: where the next commands run. */
  cd: string | undefined;
  /** Literal directories a wrapper runs its command in (`env -C dir`); for that command only. */
  chdirs: string[];
  /** Literal `git -C` directories. */
  gitDirs: string[];
  /** Every other literal argument, option value and redirect target: possible paths. */
  words: string[];
  /** Command lines it runs itself (`eval …`, `bash -c '…'`). */
  scripts: string[];
}

/** The variables that make git use another repository or work tree than the one it is in. */
const GIT_REDIRECTS =
  /^(GIT_DIR|GIT_WORK_TREE|GIT_COMMON_DIR|GIT_INDEX_FILE|GIT_OBJECT_DIRECTORY|GIT_ALTERNATE_OBJECT_DIRECTORIES|GIT_CEILING_DIRECTORIES|GIT_NAMESPACE)(\+?=|$)/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const RESERVED = new Set([
  '{',
  '}',
  '!',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'for',
  'in',
  'case',
  'esac',
  'select',
  'function',
  'coproc',
  '[[',
  ']]',
]);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox']);
/** Substitutions inside substitutions beyond this are refused rather than half-read. */
const MAX_NESTING = 4;

interface Wrapper {
  /** Options whose value is the next word. */
  valueOptions?: readonly string[];
  /** Options that change directory first (`env -C dir`, `sudo -D dir`). */
  chdirOptions?: readonly string[];
  /** Operands before the command (`timeout 10 cmd`). */
  operands?: number;
}

/** Programs that run the command after them; the check looks through them. */
const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  command: {},
  builtin: {},
  exec: { valueOptions: ['-a'] },
  nohup: {},
  time: { valueOptions: ['-f', '-o'] },
  nice: { valueOptions: ['-n'] },
  ionice: { valueOptions: ['-c', '-n', '-p'] },
  stdbuf: { valueOptions: ['-i', '-o', '-e'] },
  timeout: { valueOptions: ['-s', '-k'], operands: 1 },
  sudo: {
    valueOptions: ['-u', '-g', '-h', '-p', '-C', '-T', '-r', '-t', '-U'],
    chdirOptions: ['-D', '--chdir'],
  },
  doas: { valueOptions: ['-u', '-C'] },
  env: { valueOptions: ['-u', '--unset'], chdirOptions: ['-C', '--chdir'] },
  xargs: { valueOptions: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a'] },
};

/**
 * Why `command` would act outside the worktree, or undefined when all it names stays inside.
 * Commands are followed in order, with every directory each one may run in: a `cd` holds for
 * what follows `&&`, may or may not have happened after `;` or `||`, and ends with its subshell
 * or pipeline.
 */
export function commandLeavesWorktree(
  command: string,
  scope: CommandScope,
): Promise<string | undefined> {
  return checkCommandLine(command, new Set([scope.cwd]), scope, 0);
}

async function checkCommandLine(
  line: string,
  start: ReadonlySet<string>,
  scope: CommandScope,
  depth: number,
): Promise<string | undefined> {
  if (depth > MAX_NESTING) return 'it nests commands too deeply to check where they run';
  const list = splitShellCommands(line);
  for (const body of list.nested) {
    const reason = await checkCommandLine(body, start, scope, depth + 1);
    if (reason !== undefined) return reason;
  }
  const resolve = async (word: string, bases: ReadonlySet<string>) =>
    Promise.all([...bases].map((base) => realDir(resolveWord(word, base))));
  const inside = (real: string) => isInside(real, scope.worktree);
  let cwds: ReadonlySet<string> = start;
  const outer: ReadonlySet<string>[] = [];
  for (const step of list.steps) {
    if (step.kind === 'open') outer.push(cwds);
    if (step.kind === 'close') cwds = outer.pop() ?? cwds;
    if (step.kind !== 'command') continue;
    const { command: simple } = step;
    const reading = readSimpleCommand(simple);
    if (reading.problems.length > 0) return reading.problems[0];
    for (const script of reading.scripts) {
      const reason = await checkCommandLine(script, cwds, scope, depth + 1);
      if (reason !== undefined) return reason;
    }
    for (const dir of reading.chdirs) {
      const outside = (await resolve(dir, cwds)).find((real) => !inside(real));
      if (outside) return `it runs a command in ${dir}, outside the worktree (${outside})`;
    }
    for (const dir of reading.gitDirs) {
      const outside = (await resolve(dir, cwds)).find((real) => !inside(real));
      if (outside) return `\`git -C ${dir}\` runs git outside the worktree (in ${outside})`;
    }
    for (const word of reading.words) {
      for (const base of cwds) {
        const real = await realDir(resolveWord(word, base));
        if (inside(real) || !scope.protectedDirs.some((dir) => isInside(real, dir))) continue;
        const via = real === resolveWord(word, base) ? '' : ' through a symlink';
        return `it names ${word}, which leads${via} to ${real}, outside the worktree`;
      }
    }
    if (reading.cd === undefined) continue;
    const targets = await resolve(reading.cd, cwds);
    const outside = targets.find((real) => !inside(real));
    if (outside) return `\`cd ${reading.cd}\` leaves the worktree (for ${outside})`;
    const inSubshell =
      simple.connector === '|' || simple.connector === '&' || simple.follows === '|';
    if (inSubshell) continue;
    cwds = simple.connector === '&&' ? new Set(targets) : new Set([...cwds, ...targets]);
  }
  return undefined;
}

function resolveWord(word: string, base: string): string {
  const expanded = word === '~' || word.startsWith('~/') ? homedir() + word.slice(1) : word;
  return path.resolve(base, expanded);
}

function readSimpleCommand(simple: SimpleCommand): Reading {
  const into: Reading = {
    problems: [],
    cd: undefined,
    chdirs: [],
    gitDirs: [],
    words: [],
    scripts: [],
  };
  const { words } = simple;
  for (const word of [...words, ...simple.redirects]) {
    const redirect = GIT_REDIRECTS.exec(word.text);
    if (redirect) {
      into.problems.push(
        `it sets ${redirect[1]}, which points git at another repository or work tree`,
      );
    }
    if (/^--(git-dir|work-tree)(=|$)/.test(word.text)) {
      into.problems.push(`\`${word.text}\` points git at another repository or work tree`);
    }
  }
  for (const target of simple.redirects) if (!target.dynamic) into.words.push(target.text);
  let at = 0;
  while (at < words.length && (ASSIGNMENT.test(words[at]!.text) || RESERVED.has(words[at]!.text))) {
    at++;
  }
  at = skipWrappers(words, at, into);
  const name = words[at];
  if (name === undefined) return into;
  const program = path.basename(name.text);
  const args = words.slice(at + 1);
  if (program === 'cd' || program === 'pushd') {
    readCd(program, args, into);
    return into;
  }
  addPathWords(args, into);
  if (program === 'git') readGitOptions(args, into);
  else if (program === 'eval') into.scripts.push(args.map((word) => word.text).join(' '));
  else if (SHELLS.has(program)) readShellScript(args, into);
  return into;
}

/** Steps over `env`, `sudo`, `timeout 5`, …; returns where the real command starts. */
function skipWrappers(words: readonly ShellWord[], start: number, into: Reading): number {
  let at = start;
  for (;;) {
    const word = words[at];
    const wrapper = word && !word.dynamic ? WRAPPERS[path.basename(word.text)] : undefined;
    if (wrapper === undefined) return at;
    const isEnv = path.basename(word!.text) === 'env';
    let operands = wrapper.operands ?? 0;
    at++;
    while (at < words.length) {
      const text = words[at]!.text;
      if (text === '--') {
        at++;
        break;
      }
      if (isEnv && ASSIGNMENT.test(text)) {
        at++;
        continue;
      }
      if (text.startsWith('-') && text !== '-') {
        const chdir = chdirValue(wrapper, words, at);
        if (chdir !== undefined) {
          if (chdir.word === undefined || chdir.word.dynamic) {
            into.problems.push(`\`${text}\` changes to a directory that is not known in advance`);
          } else {
            into.chdirs.push(chdir.word.text);
          }
          at += chdir.width;
          continue;
        }
        at += wrapper.valueOptions?.includes(text) ? 2 : 1;
        continue;
      }
      if (operands > 0) {
        operands--;
        at++;
        continue;
      }
      break;
    }
  }
}

/** The directory of a wrapper's change-directory option at `at`, and how many words it took. */
function chdirValue(
  wrapper: Wrapper,
  words: readonly ShellWord[],
  at: number,
): { word: ShellWord | undefined; width: number } | undefined {
  const text = words[at]!.text;
  for (const option of wrapper.chdirOptions ?? []) {
    if (text === option) return { word: words[at + 1], width: 2 };
    const joined = option.startsWith('--') ? `${option}=` : option;
    if (text.startsWith(joined) && text.length > joined.length) {
      return { word: { text: text.slice(joined.length), dynamic: words[at]!.dynamic }, width: 1 };
    }
  }
  return undefined;
}

function readCd(name: string, args: readonly ShellWord[], into: Reading): void {
  const operands = args.filter((word) => !/^-[LPe@]+$/.test(word.text) && word.text !== '--');
  const target = operands[0];
  if (target === undefined) {
    into.problems.push(
      `\`${name}\` without a directory goes to the home directory, outside the worktree`,
    );
  } else if (target.text === '-') {
    into.problems.push(`\`${name} -\` goes back to a directory that may be outside the worktree`);
  } else if (target.dynamic) {
    into.problems.push(
      `\`${name} ${target.text}\` goes to a directory that is not known in advance`,
    );
  } else {
    into.cd = target.text;
  }
}

/** git's own options before its subcommand: `-C <dir>` and `-c core.worktree=…` move it. */
function readGitOptions(args: readonly ShellWord[], into: Reading): void {
  for (let at = 0; at < args.length; at++) {
    const { text } = args[at]!;
    if (text === '-C') {
      const dir = args[at + 1];
      if (dir === undefined) return;
      if (dir.dynamic)
        into.problems.push(
          `\`git -C ${dir.text}\` runs git in a directory that is not known in advance`,
        );
      else into.gitDirs.push(dir.text);
      at++;
    } else if (text === '-c' || text === '--config-env' || text === '--namespace') {
      const value = args[at + 1]?.text ?? '';
      if (/^core\.(worktree|bare)\b/i.test(value)) {
        into.problems.push(`\`git ${text} ${value}\` points git at another work tree`);
      }
      at++;
    } else if (!text.startsWith('-')) {
      return;
    }
  }
}

/** `bash -c '<script>'`: the script is a command line of its own. */
function readShellScript(args: readonly ShellWord[], into: Reading): void {
  const flag = args.findIndex((word) => /^-[A-Za-z]*c[A-Za-z]*$/.test(word.text));
  if (flag === -1) return;
  const script = args.slice(flag + 1).find((word) => !word.text.startsWith('-'));
  if (script === undefined) return;
  if (script.dynamic && /\$/.test(script.text)) {
    into.problems.push('it runs a shell script that is not known in advance');
  }
  into.scripts.push(script.text);
}

/** Arguments that could be paths: literal words, and the values of `--option=value`. */
function addPathWords(args: readonly ShellWord[], into: Reading): void {
  for (const word of args) {
    if (word.dynamic) continue;
    let text = word.text;
    if (text.startsWith('-')) {
      const equals = text.indexOf('=');
      if (equals === -1) continue;
      text = text.slice(equals + 1);
    }
    if (text === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) continue;
    into.words.push(text);
  }
}
