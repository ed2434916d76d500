// The text being typed and where the cursor is, with the edits a prompt line knows: insert,
// delete, move by character, word and line, kill to either end. Immutable values, pure functions.

export interface InputBuffer {
  readonly text: string;
  /** Index into `text`, 0 … text.length. */
  readonly cursor: number;
}

export const EMPTY: InputBuffer = { text: '', cursor: 0 };

export function bufferOf(text: string): InputBuffer {
  return { text, cursor: text.length };
}

export function insert(buffer: InputBuffer, typed: string): InputBuffer {
  const { text, cursor } = buffer;
  return {
    text: text.slice(0, cursor) + typed + text.slice(cursor),
    cursor: cursor + typed.length,
  };
}

export function backspace(buffer: InputBuffer): InputBuffer {
  if (buffer.cursor === 0) return buffer;
  const { text, cursor } = buffer;
  const from = previousCharacter(text, cursor);
  return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
}

export function deleteForward(buffer: InputBuffer): InputBuffer {
  const { text, cursor } = buffer;
  if (cursor >= text.length) return buffer;
  return { text: text.slice(0, cursor) + text.slice(nextCharacter(text, cursor)), cursor };
}

export function left(buffer: InputBuffer): InputBuffer {
  return { ...buffer, cursor: previousCharacter(buffer.text, buffer.cursor) };
}

export function right(buffer: InputBuffer): InputBuffer {
  return { ...buffer, cursor: nextCharacter(buffer.text, buffer.cursor) };
}

export function lineStart(buffer: InputBuffer): InputBuffer {
  return { ...buffer, cursor: buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1 };
}

export function lineEnd(buffer: InputBuffer): InputBuffer {
  const end = buffer.text.indexOf('\n', buffer.cursor);
  return { ...buffer, cursor: end === -1 ? buffer.text.length : end };
}

/** Ctrl+W: the word before the cursor, and the spaces after it. */
export function deleteWordBack(buffer: InputBuffer): InputBuffer {
  const { text, cursor } = buffer;
  let from = cursor;
  while (from > 0 && /\s/.test(text[from - 1]!)) from--;
  while (from > 0 && !/\s/.test(text[from - 1]!)) from--;
  return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
}

/** Ctrl+U: from the start of the line to the cursor. */
export function killToLineStart(buffer: InputBuffer): InputBuffer {
  const start = lineStart(buffer).cursor;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Ctrl+K: from the cursor to the end of the line. */
export function killToLineEnd(buffer: InputBuffer): InputBuffer {
  const end = lineEnd(buffer).cursor;
  return {
    text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end),
    cursor: buffer.cursor,
  };
}

/** The cursor one line up, in the same column where it can; undefined on the first line. */
export function up(buffer: InputBuffer): InputBuffer | undefined {
  const start = lineStart(buffer).cursor;
  if (start === 0) return undefined;
  const column = buffer.cursor - start;
  const previousStart = buffer.text.lastIndexOf('\n', start - 2) + 1;
  return { ...buffer, cursor: Math.min(previousStart + column, start - 1) };
}

/** The cursor one line down, in the same column where it can; undefined on the last line. */
export function down(buffer: InputBuffer): InputBuffer | undefined {
  const end = lineEnd(buffer).cursor;
  if (end === buffer.text.length) return undefined;
  const column = buffer.cursor - lineStart(buffer).cursor;
  const nextEnd = lineEnd({ ...buffer, cursor: end + 1 }).cursor;
  return { ...buffer, cursor: Math.min(end + 1 + column, nextEnd) };
}

/** Surrogate pairs move and delete as one character. */
function previousCharacter(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const code = text.charCodeAt(cursor - 1);
  return code >= 0xdc00 && code <= 0xdfff && cursor >= 2 ? cursor - 2 : cursor - 1;
}

function nextCharacter(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  const code = text.charCodeAt(cursor);
  return code >= 0xd800 && code <= 0xdbff ? cursor + 2 : cursor + 1;
}
