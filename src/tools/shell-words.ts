// Reads a bash command line the way bash will, for the read-only check: simple commands, their
// words after quote removal (knowing which characters were quoted) and their redirections.
// It understands a small part of bash exactly and refuses the rest, with the reason.

/** One word as the program will receive it, before glob expansion. */
export interface ShellWord {
  /** The text after quote removal. */
  text: string;
  /** Per character of `text`: whether it was quoted, so not special to globbing. */
  quoted: readonly boolean[];
}

export type Redirection =
  /** `<file`, `0<file`: the program reads the file. */
  | { kind: 'read'; target: ShellWord }
  /** `>/dev/null`, `2>&1`, `<&-`: nothing is read or written. */
  | { kind: 'harmless' };

export interface SimpleCommand {
  words: ShellWord[];
  redirections: Redirection[];
}

export type ParsedCommandLine = { commands: SimpleCommand[] } | { reason: string };

/** Characters that end a word when unquoted. */
const METACHARACTERS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

const SUBSTITUTION = 'it uses command substitution ($(…) or backticks), which can run anything';
const VARIABLE =
  'it expands a variable or parameter ($…), which can reveal the environment (API keys) and makes its arguments unknown';

class Refusal extends Error {}

/**
 * Splits `command` at `;`, `&`, `&&`, `|`, `||`, `|&` and newlines into simple commands. Refuses
 * what would make a word differ from its text (variables, substitutions, braces, tildes), and
 * what runs or writes out of sight (subshells, here-documents, redirections to files).
 */
export function parseCommandLine(command: string): ParsedCommandLine {
  try {
    return { commands: new Parser(command).commands() };
  } catch (error) {
    if (error instanceof Refusal) return { reason: error.message };
    throw error;
  }
}

/** Whether the character at `index` of the word is an unquoted `*`, `?` or `[`. */
export function isGlobCharacter(word: ShellWord, index: number): boolean {
  return word.quoted[index] === false && '*?['.includes(word.text[index] ?? '');
}

/** Whether bash expands the word as a filename pattern. */
export function hasGlob(word: ShellWord): boolean {
  for (let index = 0; index < word.text.length; index++) {
    if (isGlobCharacter(word, index)) return true;
  }
  return false;
}

class Parser {
  #at = 0;
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
    // Control characters (a carriage return, an escape) are words' bytes to bash but easy to
    // misread here; no read-only command needs them.
    const control = [...source].some((char) => {
      const code = char.charCodeAt(0);
      return (code < 0x20 && char !== '\t' && char !== '\n') || code === 0x7f;
    });
    if (control) throw new Refusal('it contains control characters');
  }

  commands(): SimpleCommand[] {
    const commands: SimpleCommand[] = [];
    let current: SimpleCommand = { words: [], redirections: [] };
    const end = () => {
      if (current.words.length > 0 || current.redirections.length > 0) commands.push(current);
      current = { words: [], redirections: [] };
    };
    const source = this.#source;
    while (this.#at < source.length) {
      const char = source[this.#at] ?? '';
      const next = source[this.#at + 1];
      if (char === ' ' || char === '\t') {
        this.#at++;
      } else if (char === '\\' && next === '\n') {
        // A line continuation between words is no word at all (`cd \⏎` is `cd`, not `cd ''`).
        this.#at += 2;
      } else if (char === '\n' || char === ';') {
        this.#at++;
        end();
      } else if (char === '|') {
        this.#at += next === '|' || next === '&' ? 2 : 1;
        end();
      } else if (char === '&' && next === '>') {
        current.redirections.push(this.#redirection(undefined));
      } else if (char === '&') {
        this.#at += next === '&' ? 2 : 1;
        end();
      } else if (char === '(' || char === ')') {
        throw new Refusal('it uses a subshell or process substitution');
      } else if (char === '<' || char === '>') {
        current.redirections.push(this.#redirection(undefined));
      } else if (char === '#') {
        while (this.#at < source.length && source[this.#at] !== '\n') this.#at++;
      } else {
        const word = this.#word();
        const after = source[this.#at];
        const isDescriptor =
          /^\d+$/.test(word.text) &&
          !word.quoted.includes(true) &&
          (after === '<' || after === '>');
        if (isDescriptor) current.redirections.push(this.#redirection(word.text));
        else current.words.push(word);
      }
    }
    end();
    return commands;
  }

  /** Reads one word up to an unquoted metacharacter; the caller has checked that one starts. */
  #word(): ShellWord {
    const source = this.#source;
    let text = '';
    const quoted: boolean[] = [];
    const add = (chars: string, isQuoted: boolean) => {
      text += chars;
      for (let index = 0; index < chars.length; index++) quoted.push(isQuoted);
    };
    while (this.#at < source.length) {
      const char = source[this.#at] ?? '';
      const next = source[this.#at + 1];
      if (METACHARACTERS.has(char)) break;
      if (char === '\\') {
        if (next === undefined) throw new Refusal('it ends with a lone backslash');
        if (next !== '\n') add(next, true);
        this.#at += 2;
      } else if (char === "'") {
        const close = source.indexOf("'", this.#at + 1);
        if (close === -1) throw new Refusal('it has an unterminated quote');
        add(source.slice(this.#at + 1, close), true);
        this.#at = close + 1;
      } else if (char === '"') {
        this.#at++;
        add(this.#doubleQuoted(), true);
      } else if (char === '`') {
        throw new Refusal(SUBSTITUTION);
      } else if (char === '$') {
        if (next === '(') throw new Refusal(SUBSTITUTION);
        // A `$` before a blank, an operator or the end stays a `$` (`grep foo$ file`).
        if (next !== undefined && !METACHARACTERS.has(next)) throw new Refusal(VARIABLE);
        add(char, false);
        this.#at++;
      } else if (char === '{' || char === '}') {
        throw new Refusal(
          'it uses braces, which bash may expand ({a,b} becomes a b); quote them if they are literal',
        );
      } else if (char === '~' && (text === '' || /[=:]$/.test(text))) {
        throw new Refusal(
          'it uses a tilde (~, ~user, ~+, ~-), which bash expands to a directory outside the command',
        );
      } else {
        add(char, false);
        this.#at++;
      }
    }
    return { text, quoted };
  }

  /** The inside of "…" up to and past its closing quote, as bash leaves it. */
  #doubleQuoted(): string {
    const source = this.#source;
    let text = '';
    while (this.#at < source.length) {
      const char = source[this.#at] ?? '';
      const next = source[this.#at + 1] ?? '';
      if (char === '"') {
        this.#at++;
        return text;
      }
      if (char === '`' || (char === '$' && next === '(')) throw new Refusal(SUBSTITUTION);
      if (char === '$' && next !== '"' && next !== ' ' && next !== '\t') {
        throw new Refusal(VARIABLE);
      }
      if (char === '\\' && '$`"\\\n'.includes(next)) {
        if (next !== '\n') text += next;
        this.#at += 2;
        continue;
      }
      text += char;
      this.#at++;
    }
    throw new Refusal('it has an unterminated quote');
  }

  /**
   * Reads a redirection operator and its target. Writing is harmless only to /dev/null or to
   * another descriptor; reading names a file the caller checks like any path it reads.
   */
  #redirection(descriptor: string | undefined): Redirection {
    const source = this.#source;
    const rest = source.slice(this.#at);
    const operator = /^(?:&>>|&>|>>|>\||>&|>|<<|<>|<&|<)/.exec(rest)?.[0] ?? '';
    this.#at += operator.length;
    if (operator === '<<') throw new Refusal('it uses a here-document or here-string');
    if (operator === '<>') throw new Refusal('it opens a file for reading and writing (<>)');
    if (source[this.#at] === '(') throw new Refusal('it uses a subshell or process substitution');
    while (source[this.#at] === ' ' || source[this.#at] === '\t') this.#at++;
    const first = source[this.#at];
    if (first === undefined || METACHARACTERS.has(first)) {
      throw new Refusal(`it has a redirection (${operator}) without a target`);
    }
    const target = this.#word();
    if (target.text === '')
      throw new Refusal(`it has a redirection (${operator}) without a target`);
    const shown = `${descriptor ?? ''}${operator} ${target.text}`;
    if (hasGlob(target)) throw new Refusal(`its redirection target is a pattern (${shown})`);
    const toDescriptor = /^(\d+|-)$/.test(target.text) && !target.quoted.includes(true);
    if (operator === '<&') {
      if (!toDescriptor) throw new Refusal(`it redirects from an unknown source (${shown})`);
      return { kind: 'harmless' };
    }
    if (operator === '<') return { kind: 'read', target };
    // `>&word` without a descriptor prefix writes stdout and stderr to the file `word`.
    if (operator === '>&' && toDescriptor) return { kind: 'harmless' };
    if (target.text === '/dev/null') return { kind: 'harmless' };
    throw new Refusal(`it redirects output to a file (${shown})`);
  }
}
