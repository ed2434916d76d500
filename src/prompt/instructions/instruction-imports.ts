// Where `@path` imports are in an instructions file: Claude Code's syntax, an `@` at the start of
// a line or after a space, followed by a path. Not in fenced code blocks or `code spans`, where
// `@decorator` and `npm i @scope/pkg` are examples, not imports.

export interface ImportReference {
  /** The path as written, without the `@` and trailing punctuation. */
  path: string;
  /** 1-based line in the file. */
  line: number;
}

const IMPORT = /(?:^|\s)@((?:[^\s\\`]|\\ )+)/g;
const FENCE = /^\s*(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[^`]*?\1/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;

export function importReferences(text: string): ImportReference[] {
  const found: ImportReference[] = [];
  let fence: string | undefined;
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const marker = FENCE.exec(raw)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = undefined;
      }
      return;
    }
    if (marker !== undefined) {
      fence = marker;
      return;
    }
    const prose = raw.replace(CODE_SPAN, (span) => ' '.repeat(span.length));
    for (const match of prose.matchAll(IMPORT)) {
      const path = match[1]!.replaceAll('\\ ', ' ').replace(TRAILING_PUNCTUATION, '');
      // `@` alone, an e-mail-like `@@`, or a mention such as `@alice` with no path in it.
      if (path === '' || !/[./~]/.test(path)) continue;
      found.push({ path, line: index + 1 });
    }
  });
  return found;
}
