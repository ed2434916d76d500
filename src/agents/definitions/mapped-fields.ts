// What a file format's own mapping (Codex TOML, Gemini CLI Markdown) hands the definition
// builder: fields under names the builder reads, each with its file line, the fields it keeps
// as written, and what it had to say about them.
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
