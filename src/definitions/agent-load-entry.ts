// What loading reports about one definition (a file, a built-in, an SDK entry): its outcome and
// every problem found, each tied to a line so people can fix the file.
import type { AgentDefinition, AgentSource } from './agent-definition.js';

/** One problem or remark about a definition; `line` is 1-based in the file when known. */
export interface AgentDiagnostic {
  message: string;
  line?: number;
}

/**
 * `ok`: in use. `overridden`: valid, but a definition of the same name with higher precedence
 * wins. `error`: could not be used at all (see `error`).
 */
export type AgentLoadStatus = 'ok' | 'overridden' | 'error';

export interface AgentLoadEntry {
  /** The definition's name, or for an error entry the name its file would have given. */
  name: string;
  source: AgentSource;
  status: AgentLoadStatus;
  /** Present unless `status` is `error`. */
  definition?: AgentDefinition;
  /** Present when `status` is `error`: what is wrong and how to fix it. */
  error?: AgentDiagnostic;
  /** Things that were fixed up or ignored; the definition still loaded. */
  warnings: AgentDiagnostic[];
  /** Harmless remarks (a name that differs from the file name, a model id read as anthropic:…). */
  notes: AgentDiagnostic[];
  /** Tools the definition lists that warren lacks; warned about once per tool, not per file. */
  unknownTools?: string[];
}

/** How messages name a definition's origin: its file, or "the built-in definition". */
export function sourceLabel(source: AgentSource): string {
  if (source.path !== undefined) return source.path;
  return source.kind === 'builtin' ? 'the built-in definition' : `the ${source.kind} definition`;
}
