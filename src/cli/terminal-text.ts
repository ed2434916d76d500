// Text from strangers' files as the terminal gets it: control characters and bidirectional
// overrides escaped, so a file name or a field cannot move the cursor, recolour the screen or
// show a line reversed.

export function terminalSafe(text: string): string {
  let safe = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    safe += isUnsafe(code) ? `\\u{${code.toString(16)}}` : char;
  }
  return safe;
}

/** C0 and C1 controls, DEL, and the characters that change the direction of text. */
function isUnsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x61c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}
