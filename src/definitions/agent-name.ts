// What an agent may be called. Names end up in tool names (`delegate_to_<name>`), listings and
// paths, and a definition file is a stranger's: `../x`, `a/b`, NUL or a right-to-left override
// must never get that far.

/** One spelling per name: lower case, and `-` where the author wrote a space. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const AGENT_NAME_RULE =
  'a name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit (spaces become "-")';

export type CheckedAgentName =
  | {
      name: string;
      problem?: undefined;
      /** Set when a display-style name (`UI/UX Designer`) was made into this safe one. */
      displayName?: string;
    }
  | {
      name?: undefined;
      displayName?: undefined;
      /** What is wrong, with the name shown safely: `"../x" holds "/"`. */
      problem: string;
      /** A valid name close to the written one, to offer in the fix. */
      suggestion: string;
    };

/**
 * @param options.display a name people write for people (`name:` in a file): punctuation such as
 *   `/`, `&` or `(` becomes `-`, so only a name shaped like a path, a flag, or one holding control
 *   or invisible characters is refused.
 */
export function checkAgentName(
  written: string,
  options: { display?: boolean } = {},
): CheckedAgentName {
  const name = written.trim().toLowerCase().replaceAll(' ', '-');
  if (NAME.test(name)) return { name };
  if (options.display && !pathShaped(name)) {
    const safe = suggest(name).replace(/-{2,}/g, '-');
    if (NAME.test(safe) && safe.length >= Math.min(3, name.length)) {
      return { name: safe, displayName: written };
    }
  }
  return {
    problem: `${quoted(written)} is not a valid agent name (${why(name)})`,
    suggestion: suggest(name),
  };
}

/**
 * `../x`, `/etc`, `~/x`, `.hidden`, `a\\b`, `-flag`, or anything with a control or format
 * character (NUL, a newline, a right-to-left override): never turned into a name.
 */
function pathShaped(name: string): boolean {
  return (
    /^[/\\~.-]/.test(name) ||
    name.includes('..') ||
    name.includes('\\') ||
    /\p{C}/u.test(name) ||
    name.length > 64
  );
}

function why(name: string): string {
  if (name === '') return 'it is empty';
  const bad = [...name].find((char) => !/[a-z0-9._-]/.test(char));
  if (bad !== undefined) return `it holds ${quoted(bad)}`;
  if (!/^[a-z0-9]/.test(name)) return `it starts with ${quoted(name[0]!)}`;
  return `it is ${[...name].length} characters long`;
}

function suggest(name: string): string {
  const cleaned = name
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[^a-z0-9]+$/, '');
  return cleaned === '' ? 'my-agent' : cleaned;
}

/** In double quotes, with everything but printable ASCII written as an escape. */
function quoted(text: string): string {
  const escaped = [...text]
    .map((char) => {
      if (char === '"' || char === '\\') return `\\${char}`;
      const code = char.codePointAt(0)!;
      return code >= 0x20 && code < 0x7f ? char : `\\u{${code.toString(16)}}`;
    })
    .join('');
  return `"${escaped}"`;
}
