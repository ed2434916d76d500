// Decides whether a shell command is read-only, for auto-approval and read-only agents: it changes
// nothing, shows no environment variable, and reads nothing outside the allowed directories.
// Deliberately conservative: anything it cannot vouch for is "not read-only", with the reason.
import { argumentTexts, readsOutsideProblem } from './command-arguments.js';
import { CommandScope, type PathScope } from './command-scope.js';
import { gitProblem } from './read-only-git.js';
import { ENVIRONMENT_READERS, READ_ONLY_PROGRAMS } from './read-only-programs.js';
import { hasGlob, parseCommandLine, type ShellWord, type SimpleCommand } from './shell-words.js';
import { linkOutProblem } from './symlink-scan.js';

export type { PathScope } from './command-scope.js';

export type ReadOnlyVerdict = { readOnly: true } | { readOnly: false; reason: string };

/**
 * True only for commands that clearly change nothing and read only inside `scope` (by default
 * the process's cwd): `ls`, `cat x | head`, `git status`, …
 */
export function isReadOnlyCommand(command: string, scope?: PathScope): boolean {
  return checkReadOnlyCommand(command, scope).readOnly;
}

/** Like `isReadOnlyCommand`, with the reason when the answer is no. */
export function checkReadOnlyCommand(command: string, scope?: PathScope): ReadOnlyVerdict {
  const parsed = parseCommandLine(command);
  if ('reason' in parsed) return { readOnly: false, reason: parsed.reason };
  if (parsed.commands.length === 0) return { readOnly: false, reason: 'the command is empty' };
  const where = new CommandScope(scope ?? { cwd: process.cwd(), allowedDirs: [process.cwd()] });
  for (const simple of parsed.commands) {
    const reason = simpleCommandProblem(simple, where);
    if (reason !== undefined) return { readOnly: false, reason };
  }
  return { readOnly: true };
}

function simpleCommandProblem(command: SimpleCommand, scope: CommandScope): string | undefined {
  for (const redirection of command.redirections) {
    if (redirection.kind !== 'read') continue;
    const problem = scope.readProblem(redirection.target.text, `< ${redirection.target.text}`);
    if (problem !== undefined) return problem;
  }
  const [program, ...args] = command.words;
  if (program === undefined) return undefined;
  const name = program.text;
  if (hasGlob(program)) return `the program name is a pattern (${name})`;
  if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(name)) {
    return 'it sets environment variables, which can change what a program does';
  }
  if (ENVIRONMENT_READERS.has(name)) {
    return `\`${name}\` shows environment variables, which can hold secrets such as API keys; it is never read-only`;
  }
  if (name === 'cd') return changeDirectory(args, scope);
  if (name === 'git') return gitProblem(args, scope);
  const rule = READ_ONLY_PROGRAMS.get(name);
  if (rule === undefined) return `\`${name}\` is not a command known to be read-only`;

  const expanded = argumentTexts(args, scope);
  if ('problem' in expanded) return expanded.problem;
  const texts = expanded.texts;
  const problem = rule.problem?.(texts);
  if (problem !== undefined) return problem;
  if (!rule.readsFiles) return undefined;
  const outside = readsOutsideProblem(texts, scope);
  if (outside !== undefined) return outside;
  if (!rule.followsLinks?.(texts)) return undefined;
  return linkOutProblem(name, walkedDirectories(texts, scope, rule.walksCwd === true), scope);
}

/** The directories a link-following walk starts from: those the arguments name, and cwd. */
function walkedDirectories(
  texts: readonly string[],
  scope: CommandScope,
  walksCwd: boolean,
): string[] {
  const named = texts.flatMap((text) =>
    scope
      .resolve(text)
      .flatMap((resolved) =>
        resolved.kind === 'found' && resolved.isDirectory ? [resolved.path] : [],
      ),
  );
  return walksCwd ? [...scope.cwds, ...named] : named;
}

/**
 * `cd dir` moves the rest of the line, if it succeeds: from then on, paths are checked from both
 * places. `cd` alone, `cd -` and names looked up in CDPATH go where the command does not say.
 */
function changeDirectory(args: readonly ShellWord[], scope: CommandScope): string | undefined {
  const [word, ...more] = args;
  if (word === undefined)
    return '`cd` without a directory goes to $HOME, outside the allowed directories';
  const dir = word.text;
  if (hasGlob(word)) return `\`cd ${dir}\` goes to a directory a pattern picks`;
  if (more.length > 0 || dir.startsWith('-') || dir === '')
    return `\`cd ${dir}\` is not a plain cd`;
  const cdpath = process.env.CDPATH;
  if (cdpath && !/^(\/|\.\.?(\/|$))/.test(dir)) {
    return `CDPATH is set, so \`cd ${dir}\` may go to a directory outside the allowed ones; write ./${dir}`;
  }
  const problem = scope.readProblem(dir, dir);
  if (problem !== undefined) return problem;
  for (const resolved of scope.resolve(dir)) {
    if (resolved.kind === 'found' && !scope.cwds.includes(resolved.path)) {
      scope.cwds.push(resolved.path);
    }
  }
  return undefined;
}
