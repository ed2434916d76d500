// Reads one Codex agent file (TOML) into a load entry. Invalid TOML is an error entry naming
// the line and column; the fields are mapped by codex-fields.ts and built like any definition.
import { parse, TomlError } from 'smol-toml';
import type { AgentSource } from './agent-definition.js';
import type { AgentLoadEntry } from './agent-load-entry.js';
import { buildAgentDefinition } from './build-agent-definition.js';
import { mapCodexFields } from './codex-fields.js';
import { codexFileOverCap } from './frontmatter-cap.js';

export interface ParseCodexAgentFileOptions {
  path: string;
  source: AgentSource;
  /** The name when the file has none: its file name without `.toml`. */
  fallbackName: string;
  text: string;
}

export function parseCodexAgentFile(options: ParseCodexAgentFileOptions): AgentLoadEntry {
  const { source, fallbackName } = options;
  const failed = (message: string, line?: number): AgentLoadEntry => ({
    name: fallbackName,
    source,
    status: 'error',
    error: line === undefined ? { message } : { message, line },
    warnings: [],
    notes: [],
  });
  const overCap = codexFileOverCap(options.text);
  if (overCap) return failed(overCap.message);
  let table: Record<string, unknown>;
  try {
    table = plainValues(parse(options.text)) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const problem = error.message.split('\n', 1)[0]!.replace(/^Invalid TOML document: /, '');
    return failed(
      `the file is not valid TOML (${problem}, column ${error.column}): fix the syntax there (strings in quotes, one \`key = value\` a line, long text in """triple quotes""")`,
      error.line,
    );
  }

  const lines = topLevelKeyLines(options.text);
  const mapped = mapCodexFields(table, lines);
  if (mapped.error) {
    return { ...failed(mapped.error.message, mapped.error.line), warnings: mapped.warnings };
  }
  const built = buildAgentDefinition({
    fields: mapped.fields,
    origin: 'file',
    fallbackName,
    source,
    lineOf: (field) => (Object.hasOwn(mapped.lines, field) ? mapped.lines[field] : undefined),
    missingFieldLine: 1,
    extra: mapped.extra,
  });
  const diagnostics = {
    warnings: [...mapped.warnings, ...built.warnings],
    notes: [...mapped.notes, ...built.notes],
    ...(built.unknownTools && { unknownTools: built.unknownTools }),
  };
  if (built.error) {
    return { name: built.name, source, status: 'error', error: built.error, ...diagnostics };
  }
  return { name: built.name, source, status: 'ok', definition: built.definition, ...diagnostics };
}

/** TOML values as JSON-like ones: plain objects (the parser's have no prototype), dates as text. */
function plainValues(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plainValues);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, plainValues(item)] as const);
    // Entries, not assignment: a key such as `__proto__` must stay a key.
    return Object.fromEntries(entries);
  }
  return value;
}

const TABLE_HEADER = /^\s*\[\[?\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)/;
const KEY_LINE = /^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]/;

/**
 * The line of each top-level key: `key = …` before the first table header, and a table's first
 * header line (`[mcp_servers.fs]` for `mcp_servers`). Lines inside multi-line strings are skipped.
 */
function topLevelKeyLines(text: string): Record<string, number> {
  const lines: Record<string, number> = Object.create(null);
  let inTable = false;
  let openString: string | undefined;
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    if (openString !== undefined) {
      if (countOf(line, openString) % 2 === 1) openString = undefined;
      return;
    }
    const header = TABLE_HEADER.exec(line);
    const key = header ?? (inTable ? null : KEY_LINE.exec(line));
    if (header) inTable = true;
    if (key) {
      const name = unquote(key[1]!);
      if (!Object.hasOwn(lines, name)) lines[name] = index + 1;
    }
    for (const quotes of ['"""', "'''"]) {
      if (countOf(line, quotes) % 2 === 1) openString = quotes;
    }
  });
  return lines;
}

function countOf(line: string, quotes: string): number {
  return line.split(quotes).length - 1;
}

function unquote(key: string): string {
  if (key.startsWith('"')) return JSON.parse(key) as string;
  if (key.startsWith("'")) return key.slice(1, -1);
  return key;
}
