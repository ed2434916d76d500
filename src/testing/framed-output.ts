// Test support: a child's words as its parent got them, with the sub-agent frame (header line,
// indentation; agents/framed-output.ts) taken off, for tests about what the words were.

const INDENT = '    ';

/** `output` without the frame's header line and indentation; unchanged when it has no frame. */
export function unframed(output: string): string {
  const lines = output.split('\n');
  const header = lines.findIndex((line) => /^Sub-agent (structured )?output/.test(line));
  if (header < 0) return output;
  const words = lines
    .slice(header + 1)
    .map((line) => (line.startsWith(INDENT) ? line.slice(INDENT.length) : line));
  return [...lines.slice(0, header), ...words].join('\n');
}
