// What a command's arguments can name: every text a word may expand to, and every path an
// argument may hold (`--file=x`, `-fx`, `@x`), checked against the allowed directories.
import type { CommandScope } from './command-scope.js';
import { globCandidates } from './glob-candidates.js';
import { hasGlob, type ShellWord } from './shell-words.js';

export type ArgumentTexts = { texts: string[] } | { problem: string };

/** The texts the words may become: a literal word itself, a pattern every path it could match. */
export function argumentTexts(words: readonly ShellWord[], scope: CommandScope): ArgumentTexts {
  const texts: string[] = [];
  for (const word of words) {
    if (!hasGlob(word)) {
      texts.push(word.text);
      continue;
    }
    const candidates = globCandidates(word, scope);
    if ('problem' in candidates) return candidates;
    texts.push(...candidates.paths);
  }
  return { texts };
}

/**
 * The paths an argument may name, read generously: itself, the value of `--opt=value` or
 * `key=value`, every tail of a short-option cluster (`-f/etc/passwd`), and `@file`.
 */
function pathsIn(arg: string): string[] {
  const paths = [arg];
  const equals = arg.indexOf('=');
  if (equals !== -1) paths.push(arg.slice(equals + 1));
  if (/^-[^-]/.test(arg)) {
    for (let at = 2; at < arg.length; at++) paths.push(arg.slice(at));
  }
  if (arg.startsWith('@')) paths.push(arg.slice(1));
  return [...new Set(paths)].filter((candidate) => candidate !== '');
}

/** Why opening what the texts name (from the given working directories) could leave the allowed ones. */
export function readsOutsideProblem(
  texts: readonly string[],
  scope: CommandScope,
  cwds: readonly string[] = scope.cwds,
): string | undefined {
  for (const text of texts) {
    for (const candidate of pathsIn(text)) {
      const problem = scope.readProblem(candidate, candidate, cwds);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
