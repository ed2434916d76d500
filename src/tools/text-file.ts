// What the file tools treat as a text file: how large a file they load, how they tell binary
// content, and how text splits into lines. Read, Write, Edit and Grep must agree on all three.

/** Larger files are not loaded whole: Read refuses them, Grep's JavaScript engine skips them. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** How far into a file a NUL byte is looked for. */
const BINARY_SNIFF_BYTES = 8192;

/** Binary rather than text: a NUL byte near the start, the test git and ripgrep use too. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The file's lines without terminators; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body === '') return [];
  const lines = body.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
