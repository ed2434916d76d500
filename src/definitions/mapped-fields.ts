// What a file format's own mapping (Codex TOML, Gemini CLI Markdown) hands the definition
// builder: fields under names the builder reads, each with its file line, the fields it keeps
// as written, and what it had to say about them; and the start every such mapping makes.
import type { AgentDiagnostic } from './agent-load-entry.js';

export interface MappedFields {
  /** Fields under warren's names (or names `fieldForKey` reads), `prompt` included when set. */
  fields: Record<string, unknown>;
  /** File line of each key of `fields`. */
  lines: Record<string, number>;
  /** Fields with no warren equivalent, already reported: kept in `extra` as written. */
  extra: [string, unknown][];
  warnings: AgentDiagnostic[];
  notes: AgentDiagnostic[];
  /** Set when the file cannot be used at all (a Gemini remote agent, a Codex file without instructions). */
  error?: AgentDiagnostic;
}

/** A diagnostic at a line when there is one. */
export function at(line: number | undefined, message: string): AgentDiagnostic {
  return line === undefined ? { message } : { message, line };
}

/**
 * An empty mapping of a file whose keys stand at `lines`, with the two steps every format takes:
 * the line a key stands at, and keeping a key's value under a warren field (with that line).
 */
export function startMapping(lines: Record<string, number>): {
  mapped: MappedFields;
  lineOf: (key: string) => number | undefined;
  keep: (key: string, field: string, value: unknown) => void;
} {
  const mapped: MappedFields = {
    fields: Object.create(null),
    lines: Object.create(null),
    extra: [],
    warnings: [],
    notes: [],
  };
  const lineOf = (key: string) => (Object.hasOwn(lines, key) ? lines[key] : undefined);
  const keep = (key: string, field: string, value: unknown) => {
    mapped.fields[field] = value;
    const line = lineOf(key);
    if (line !== undefined) mapped.lines[field] = line;
  };
  return { mapped, lineOf, keep };
}
