// When a git command is read-only: a subcommand or form that only shows things, no option that
// writes or runs a program, and a repository whose working tree lies in the allowed directories.
// It trusts the repository's own configuration (`git diff` runs a diff driver from .git/config):
// writing .git needs Write/Edit permission first, which is never given silently.
import { argumentTexts, readsOutsideProblem } from './command-arguments.js';
import type { CommandScope } from './command-scope.js';
import { findGitRepository } from './git-repository.js';
import { optionMatches } from './read-only-programs.js';
import { hasGlob, type ShellWord } from './shell-words.js';

type FormCheck = (args: readonly string[]) => string | undefined;

const ANY_ARGUMENTS = new Set([
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
const FORM_CHECKS = new Map<string, FormCheck>([
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
  ['reflog', firstArgumentIn('reflog', [undefined, 'show'])],
  ['remote', remoteArguments],
  ['stash', firstArgumentIn('stash', ['list', 'show'])],
  ['worktree', firstArgumentIn('worktree', ['list'])],
]);

const WRITING_OPTIONS = ['--output', '-O', '--open-files-in-pager'];

/** Environment variables that make git read another repository than the one found from cwd. */
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_INDEX_FILE',
];

/** Why `git <args>` is not read-only in `scope`, or undefined. */
export function gitProblem(words: readonly ShellWord[], scope: CommandScope): string | undefined {
  const variable = REPOSITORY_VARIABLES.find((name) => process.env[name]);
  if (variable !== undefined) return `${variable} is set, so git may read another repository`;
  let rest = [...words];
  let gitCwds = scope.cwds;
  // `-C <dir>` and `--no-pager` change nothing; `-c` could set a pager or hook: refused.
  for (;;) {
    const first = rest[0];
    if (first?.text === '--no-pager') rest = rest.slice(1);
    else if (first?.text === '-C' && rest[1] !== undefined && !hasGlob(rest[1])) {
      const dir = rest[1].text;
      const problem = scope.readProblem(dir, dir);
      if (problem !== undefined) return problem;
      gitCwds = directoriesFrom(scope, dir, gitCwds);
      rest = rest.slice(2);
    } else break;
  }
  const [subcommandWord, ...subWords] = rest;
  if (subcommandWord === undefined) return 'git without a subcommand';
  const subcommand = subcommandWord.text;
  if (hasGlob(subcommandWord)) return `the git subcommand is a pattern (${subcommand})`;
  if (subcommand.startsWith('-')) return `git ${subcommand} before the subcommand`;
  // A pattern could become an option or a name that creates something; after `--` it is a path.
  const dashes = subWords.findIndex((word) => word.text === '--' && !word.quoted.includes(true));
  const options = dashes === -1 ? subWords : subWords.slice(0, dashes);
  const pattern = options.find(hasGlob);
  if (pattern !== undefined) {
    return `an argument of git is a pattern (${pattern.text}); quote it, or put paths after --`;
  }
  const formProblem = subcommandProblem(
    subcommand,
    options.map((word) => word.text),
  );
  if (formProblem !== undefined) return formProblem;
  const texts = argumentTexts(subWords, scope);
  if ('problem' in texts) return texts.problem;
  // Bash expands patterns where it runs; git reads paths from where `-C` takes it: check both.
  const from = [...new Set([...scope.cwds, ...gitCwds])];
  return readsOutsideProblem(texts.texts, scope, from) ?? repositoryProblem(gitCwds, scope);
}

function subcommandProblem(subcommand: string, args: readonly string[]): string | undefined {
  if (subcommand === 'config') {
    return 'git config shows the user and system configuration, outside the project (~/.gitconfig can hold tokens)';
  }
  if (args.includes('--no-index')) {
    return `git ${subcommand} --no-index reads files outside the repository and follows symlinks`;
  }
  const writing = args.find((arg) => WRITING_OPTIONS.some((option) => optionMatches(arg, option)));
  if (writing !== undefined) return `git ${subcommand} ${writing} writes files or runs a program`;
  if (ANY_ARGUMENTS.has(subcommand)) return undefined;
  const check = FORM_CHECKS.get(subcommand);
  if (check === undefined) return `\`git ${subcommand}\` is not known to be read-only`;
  return check(args);
}

/** The directories `-C dir` leads to from each of `from`; a missing one leaves git where it was. */
function directoriesFrom(scope: CommandScope, dir: string, from: readonly string[]): string[] {
  return scope
    .resolve(dir, from)
    .flatMap((resolved, index) =>
      resolved.kind === 'found' ? [resolved.path] : [from[index] as string],
    );
}

/** Git shows the whole repository: its working tree must lie inside the allowed directories. */
function repositoryProblem(gitCwds: readonly string[], scope: CommandScope): string | undefined {
  for (const cwd of gitCwds) {
    const repository = findGitRepository(cwd);
    if (repository === undefined) continue;
    if (!scope.isAllowed(repository.top)) {
      return `git would read the repository at ${repository.top}, which reaches outside the allowed directories`;
    }
    if (!scope.isAllowed(repository.gitDir) && !repository.isLinkedWorktree) {
      return `git would read the git directory ${repository.gitDir}, outside the allowed directories`;
    }
  }
  return undefined;
}

/** Only listing flags, and names only as patterns after `-l`/`--list` (else they create). */
function listingOnly(subcommand: string, listingFlags: readonly string[]): FormCheck {
  const allowed = new Set([...listingFlags, '-l', '--list']);
  return (args) => {
    const flag = args.find((arg) => arg.startsWith('-') && !allowed.has(arg));
    if (flag !== undefined) return `git ${subcommand} ${flag} is not a listing option`;
    const listing = args.some((arg) => arg === '-l' || arg === '--list');
    const name = args.find((arg) => !arg.startsWith('-'));
    if (name !== undefined && !listing) return `git ${subcommand} ${name} creates a ${subcommand}`;
    return undefined;
  };
}

/** `git remote [-v]` lists and `get-url` reads; every other form changes the remotes. */
function remoteArguments(args: readonly string[]): string | undefined {
  const [first, ...more] = args;
  if (first !== '-v' && first !== '--verbose') {
    return firstArgumentIn('remote', [undefined, 'get-url'])(args);
  }
  return more.length === 0 ? undefined : firstArgumentIn('remote -v', [undefined])(more);
}

/** Read-only when the first argument is one of `forms` (undefined: no arguments at all). */
function firstArgumentIn(subcommand: string, forms: readonly (string | undefined)[]): FormCheck {
  return (args) => {
    const first = args[0];
    if (forms.includes(first)) return undefined;
    return `\`git ${subcommand}${first === undefined ? '' : ` ${first}`}\` is not known to be read-only`;
  };
}
