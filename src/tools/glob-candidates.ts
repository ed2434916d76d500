// Every path a filename pattern in a command could become, found without bash's matching rules:
// each component holding `*`, `?` or `[` stands for every entry of its directory, hidden ones
// included, and `.` and `..` too when it starts with a dot (bash matches those only then).
// That is more than bash matches, never less, so checking them all is safe.
import { readdirSync } from 'node:fs';
import type { CommandScope } from './command-scope.js';
import { isGlobCharacter, type ShellWord } from './shell-words.js';

/** Beyond this many paths a pattern is not worth checking one by one. */
const MAX_CANDIDATES = 2_000;

export type GlobCandidates = { paths: string[] } | { problem: string };

/**
 * The texts the word could expand to, the word itself included (bash keeps a pattern that
 * matches nothing). Listing a directory outside the allowed ones is itself a problem.
 */
export function globCandidates(word: ShellWord, scope: CommandScope): GlobCandidates {
  const components = splitComponents(word);
  if (components.some((component) => component.glob && component.text.includes('**'))) {
    return { problem: `the pattern ${word.text} uses **, which may search whole trees (globstar)` };
  }
  let prefixes = [''];
  for (const [index, component] of components.entries()) {
    const separator = index === 0 ? '' : '/';
    if (!component.glob) {
      prefixes = prefixes.map((prefix) => prefix + separator + component.text);
      continue;
    }
    const next: string[] = [];
    for (const prefix of prefixes) {
      const withDots = component.text.startsWith('.');
      const listed = listDirectory(prefix + separator, withDots, word.text, scope);
      if ('problem' in listed) return listed;
      // Case aside (nocaseglob), a match starts with the literal text before the pattern.
      const start = component.prefix.toLowerCase();
      const matching = listed.entries.filter((entry) => entry.toLowerCase().startsWith(start));
      next.push(...matching.map((entry) => prefix + separator + entry));
      if (next.length > MAX_CANDIDATES) {
        return { problem: `the pattern ${word.text} matches too many paths to check` };
      }
    }
    prefixes = next;
  }
  return { paths: [word.text, ...prefixes] };
}

interface Component {
  text: string;
  glob: boolean;
  /** The literal text before the first pattern character: every match starts with it. */
  prefix: string;
}

/** The word's slash-separated components, each knowing whether it holds a pattern character. */
function splitComponents(word: ShellWord): Component[] {
  const components: Component[] = [{ text: '', glob: false, prefix: '' }];
  for (let index = 0; index < word.text.length; index++) {
    const char = word.text[index] as string;
    const last = components.at(-1) as Component;
    if (char === '/') {
      components.push({ text: '', glob: false, prefix: '' });
      continue;
    }
    if (!last.glob && isGlobCharacter(word, index)) {
      last.glob = true;
      last.prefix = last.text;
    }
    last.text += char;
  }
  return components;
}

/** The entries bash could list in `dir` (as the command writes it), refused when it is outside. */
function listDirectory(
  dir: string,
  withDots: boolean,
  pattern: string,
  scope: CommandScope,
): { entries: string[] } | { problem: string } {
  const entries = new Set<string>();
  for (const resolved of scope.resolve(dir === '' ? '.' : dir)) {
    if (resolved.kind === 'missing') continue;
    if (resolved.kind !== 'found' || !scope.isAllowed(resolved.path)) {
      const where = resolved.kind === 'found' ? resolved.path : dir;
      return {
        problem: `the pattern ${pattern} lists ${where}, outside the allowed directories`,
      };
    }
    if (!resolved.isDirectory) continue;
    for (const name of readEntries(resolved.path)) entries.add(name);
    if (withDots) {
      entries.add('.');
      entries.add('..');
    }
  }
  return { entries: [...entries] };
}

function readEntries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
