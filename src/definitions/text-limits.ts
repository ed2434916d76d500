// How much of a description or prompt warren keeps. Both go into every request of the agents
// that see them; a definition file of megabytes is a mistake or an attack, not a prompt.

/** 64 KiB: ten times the longest real prompt seen (39 KB), and no model needs more from a file. */
export const MAX_TEXT_BYTES = 64 * 1024;

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never splitting a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char, 'utf8');
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}
