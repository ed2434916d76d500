// How much of a definition file warren reads: a file of megabytes, or a frontmatter of
// thousands of keys, is a mistake or an attack, and is refused at a documented cap.
import type { AgentDiagnostic } from './agent-load-entry.js';
import { MAX_TEXT_BYTES } from './text-limits.js';

/** 8 MiB: a definition file is kilobytes; its prompt is cut at 64 KiB anyway. */
export const DEFINITION_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** 128 KiB: room for a description at its own cap (64 KiB) and every other field many times. */
export const FRONTMATTER_MAX_BYTES = 2 * MAX_TEXT_BYTES;

/**
 * The error for a frontmatter over the cap, at the line where it crosses it; undefined when it
 * fits. Counting bytes and line ends is linear, so the check costs nothing next to the parse.
 * @param firstLine file line of the frontmatter's first line
 */
export function frontmatterOverCap(
  frontmatter: string,
  firstLine: number,
): AgentDiagnostic | undefined {
  const bytes = Buffer.from(frontmatter, 'utf8');
  if (bytes.length <= FRONTMATTER_MAX_BYTES) return undefined;
  let line = firstLine;
  for (let i = 0; i < FRONTMATTER_MAX_BYTES; i++) if (bytes[i] === 0x0a) line += 1;
  return {
    line,
    message: `the frontmatter is ${bytes.length} bytes, more than the ${FRONTMATTER_MAX_BYTES} (128 KiB) warren reads; it crosses the cap here. Keep the fields short and put long text in the prompt below the frontmatter`,
  };
}
