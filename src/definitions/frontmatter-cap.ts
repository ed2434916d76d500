// How much of a definition file warren reads: a file of megabytes, or a frontmatter of
// thousands of keys, is a mistake or an attack, and is refused at a documented cap.
import type { AgentDiagnostic } from './agent-load-entry.js';
import { MAX_TEXT_BYTES } from './text-limits.js';

/** 8 MiB: a definition file is kilobytes; its prompt is cut at 64 KiB anyway. */
export const DEFINITION_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** 128 KiB: room for a description at its own cap (64 KiB) and every other field many times. */
export const FRONTMATTER_MAX_BYTES = 2 * MAX_TEXT_BYTES;

/**
 * 1 MiB for a Codex TOML file, whose prompt is inside it: its parser is linear, and this bounds
 * it to well under a second.
 */
export const CODEX_FILE_MAX_BYTES = 1024 * 1024;

/** The error for a Codex file over its cap; undefined when it fits. */
export function codexFileOverCap(text: string): AgentDiagnostic | undefined {
  const size = Buffer.byteLength(text, 'utf8');
  if (size <= CODEX_FILE_MAX_BYTES) return undefined;
  return {
    message: `the file is ${size} bytes, more than the ${CODEX_FILE_MAX_BYTES} (1 MiB) warren reads from a Codex agent file; shorten it`,
  };
}

/**
 * 1,000 fields at column 0: real definitions have a dozen. Within the byte cap this bounds the
 * line-by-line fallback (one small parse per field) to a fraction of a second.
 */
export const FRONTMATTER_MAX_FIELDS = 1000;

/** A line that starts a field, as the line-by-line fallback reads one. */
const FIELD_LINE = /^[A-Za-z_][\w.-]*[ \t]*:(?:[ \t]|$)/;

/**
 * The error for a frontmatter over either cap, at the line where it crosses it; undefined when it
 * fits. Counting bytes and line ends is linear, so the check costs nothing next to the parse.
 * @param firstLine file line of the frontmatter's first line
 */
export function frontmatterOverCap(
  frontmatter: string,
  firstLine: number,
): AgentDiagnostic | undefined {
  const bytes = Buffer.from(frontmatter, 'utf8');
  if (bytes.length <= FRONTMATTER_MAX_BYTES) return tooManyFields(frontmatter, firstLine);
  let line = firstLine;
  for (let i = 0; i < FRONTMATTER_MAX_BYTES; i++) if (bytes[i] === 0x0a) line += 1;
  return {
    line,
    message: `the frontmatter is ${bytes.length} bytes, more than the ${FRONTMATTER_MAX_BYTES} (128 KiB) warren reads; it crosses the cap here. Keep the fields short and put long text in the prompt below the frontmatter`,
  };
}

function tooManyFields(frontmatter: string, firstLine: number): AgentDiagnostic | undefined {
  let fields = 0;
  const lines = frontmatter.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (!FIELD_LINE.test(lines[index]!)) continue;
    fields += 1;
    if (fields > FRONTMATTER_MAX_FIELDS) {
      return {
        line: firstLine + index,
        message: `the frontmatter has more than ${FRONTMATTER_MAX_FIELDS} fields, the most warren reads; this is field ${fields}. Remove the fields no agent needs`,
      };
    }
  }
  return undefined;
}
