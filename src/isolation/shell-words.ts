// Splits a bash command line into simple commands of words, the way bash would see them before
// expansion: quotes removed, ANSI-C escapes decoded, and every piece of shell that runs a command
// of its own ($(…), backticks, <(…)) handed back as a nested command line to be checked too.

export interface ShellWord {
  text: string;
  /** Expansion decides what it is ($VAR, globs, braces, a substitution): the text is not it. */
  dynamic: boolean;
}

/** What ends a simple command: it decides whether a `cd` in it holds for the next one. */
export type Connector = ';' | '&&' | '||' | '|' | '&' | '(' | ')' | 'end';

export interface SimpleCommand {
  words: ShellWord[];
  /** Files it redirects to or from (`> out.txt`, `< in`); file descriptors (`2>&1`) left out. */
  redirects: ShellWord[];
  /** The operator after it (a newline is `;`). */
  connector: Connector;
  /** The operator before it: after `|` it runs in a pipeline's subshell. */
  follows: Connector;
}

/** The command line in order: simple commands, and where subshells open and close. */
export type ShellStep = { kind: 'command'; command: SimpleCommand } | { kind: 'open' | 'close' };

export interface ShellCommandList {
  steps: ShellStep[];
  /** Command lines that run as part of this one: substitutions' bodies. */
  nested: string[];
}

const SEPARATORS = new Set(['\n', ';', '&', '|', '(', ')']);
const BLANKS = new Set([' ', '\t', '\r']);

/** Splits `command` into simple commands. Never throws: odd input gives odd but safe words. */
export function splitShellCommands(command: string): ShellCommandList {
  const steps: ShellStep[] = [];
  const nested: string[] = [];
  let follows: Connector = 'end';
  let current: SimpleCommand = { words: [], redirects: [], connector: 'end', follows };
  let text: string | undefined;
  let dynamic = false;
  let redirectNext = false;

  const endWord = () => {
    if (text === undefined) return;
    const word = { text, dynamic };
    if (redirectNext) {
      if (!/^(\d+|-)$/.test(text)) current.redirects.push(word);
      redirectNext = false;
    } else {
      current.words.push(word);
    }
    text = undefined;
    dynamic = false;
  };
  const endCommand = (connector: Connector) => {
    endWord();
    if (current.words.length > 0 || current.redirects.length > 0) {
      current.connector = connector;
      steps.push({ kind: 'command', command: current });
    }
    if (connector === '(') steps.push({ kind: 'open' });
    if (connector === ')') steps.push({ kind: 'close' });
    follows = connector;
    current = { words: [], redirects: [], connector: 'end', follows };
  };
  const append = (chars: string) => {
    text = (text ?? '') + chars;
  };

  for (let at = 0; at < command.length; at++) {
    const char = command[at]!;
    const next = command[at + 1];
    if (BLANKS.has(char)) {
      endWord();
    } else if (char === '\\') {
      if (next !== undefined && next !== '\n') append(next);
      at++;
    } else if (char === "'") {
      const close = closing(command, at + 1, "'");
      append(command.slice(at + 1, close));
      at = close;
    } else if (char === '$' && next === "'") {
      const close = closingAnsiC(command, at + 2);
      append(decodeAnsiC(command.slice(at + 2, close)));
      at = close;
    } else if (char === '"' || (char === '$' && next === '"')) {
      const quoted = readDoubleQuoted(command, char === '$' ? at + 2 : at + 1, nested);
      append(quoted.text);
      dynamic ||= quoted.dynamic;
      at = quoted.end;
    } else if (char === '$' && next === '(') {
      const close = closingParen(command, at + 2);
      nested.push(command.slice(at + 2, close));
      append(command.slice(at, close + 1));
      dynamic = true;
      at = close;
    } else if (char === '`') {
      const close = closing(command, at + 1, '`');
      nested.push(command.slice(at + 1, close));
      append(command.slice(at, close + 1));
      dynamic = true;
      at = close;
    } else if ((char === '<' || char === '>') && next === '(') {
      // Process substitution: its body runs; the word becomes a /dev/fd path.
      const close = closingParen(command, at + 2);
      nested.push(command.slice(at + 2, close));
      append(command.slice(at, close + 1));
      dynamic = true;
      at = close;
    } else if (char === '>' || char === '<' || (char === '&' && next === '>')) {
      // A number right before it is the descriptor (`2>`), not a word.
      if (text !== undefined && /^\d+$/.test(text)) text = undefined;
      endWord();
      let end = at + 1;
      while (
        command[end] === '>' ||
        command[end] === '<' ||
        command[end] === '&' ||
        command[end] === '|'
      ) {
        end++;
      }
      at = end - 1;
      redirectNext = true;
    } else if (char === '#' && text === undefined) {
      while (at + 1 < command.length && command[at + 1] !== '\n') at++;
    } else if (SEPARATORS.has(char)) {
      if ((char === '&' || char === '|') && next === char) {
        endCommand(char === '&' ? '&&' : '||');
        at++;
      } else {
        endCommand(char === '\n' ? ';' : (char as Connector));
      }
    } else {
      if ('$*?[]{}'.includes(char)) dynamic = true;
      append(char);
    }
  }
  endCommand('end');
  return { steps, nested };
}

/** The simple commands of a command line, in order. */
export function simpleCommands(list: ShellCommandList): SimpleCommand[] {
  return list.steps.flatMap((step) => (step.kind === 'command' ? [step.command] : []));
}

/** Index of the next `quote` from `from`, or the end of the text when it never closes. */
function closing(text: string, from: number, quote: string): number {
  const index = text.indexOf(quote, from);
  return index === -1 ? text.length : index;
}

/** The `'` that ends an ANSI-C string, skipping escaped quotes. */
function closingAnsiC(text: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === "'") return at;
  }
  return text.length;
}

/** The `)` that closes a `(` just before `from`, across nested parens and quotes. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let at = from; at < text.length; at++) {
    const char = text[at];
    if (char === '\\') at++;
    else if (char === "'") at = closing(text, at + 1, "'");
    else if (char === '"') at = readDoubleQuoted(text, at + 1, []).end;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return at;
  }
  return text.length;
}

function readDoubleQuoted(
  command: string,
  start: number,
  nested: string[],
): { text: string; dynamic: boolean; end: number } {
  let text = '';
  let dynamic = false;
  for (let at = start; at < command.length; at++) {
    const char = command[at]!;
    if (char === '"') return { text, dynamic, end: at };
    if (char === '\\' && '$`"\\\n'.includes(command[at + 1] ?? '')) {
      if (command[at + 1] !== '\n') text += command[at + 1];
      at++;
    } else if (char === '$' && command[at + 1] === '(') {
      const close = closingParen(command, at + 2);
      nested.push(command.slice(at + 2, close));
      text += command.slice(at, close + 1);
      dynamic = true;
      at = close;
    } else if (char === '`') {
      const close = closing(command, at + 1, '`');
      nested.push(command.slice(at + 1, close));
      text += command.slice(at, close + 1);
      dynamic = true;
      at = close;
    } else {
      if (char === '$') dynamic = true;
      text += char;
    }
  }
  return { text, dynamic, end: command.length };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** What bash makes of the inside of `$'…'`: `\x5f` is `_`, so `$'GIT\x5fDIR'` is GIT_DIR. */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, sequence: string) => {
      const kind = sequence[0]!;
      if (kind === 'x' || kind === 'u' || kind === 'U') {
        const code = Number.parseInt(sequence.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(sequence, 8));
      if (kind === 'c') return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
      return SIMPLE_ESCAPES[sequence] ?? `\\${sequence}`;
    },
  );
}
