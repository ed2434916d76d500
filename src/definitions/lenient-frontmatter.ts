// The fallback for frontmatter that is not valid YAML (2% of real files): a line `key: …` at
// column 0 starts a field, every other line continues it, and each field is parsed on its own.
import { isMap, LineCounter } from 'yaml';
import type { AgentDiagnostic } from './agent-load-entry.js';
import { isKnownKey } from './field-names.js';
import { parseYamlLinear } from './linear-yaml.js';
import { yamlValues } from './yaml-values.js';

export interface LenientFrontmatter {
  fields: Record<string, unknown>;
  /** File line of each field's key. */
  lines: Record<string, number>;
  /** What was recovered and how, one entry per repaired field. */
  fixes: AgentDiagnostic[];
  /** Set when a field cannot be read at all (an alias fan-out): the file cannot be used. */
  error?: AgentDiagnostic;
}

interface Chunk {
  key: string;
  line: number;
  /** The text after `key:` on the first line. */
  head: string;
  rest: string[];
  /** File lines of `key:` lines kept in this field's text rather than read as fields. */
  kept: number[];
}

const FIELD_START = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+|$)(.*)$/;

/** @param firstLine file line of the frontmatter's first line */
export function parseFrontmatterLeniently(text: string, firstLine: number): LenientFrontmatter {
  // Without a prototype, a key such as `__proto__` or `constructor` is just a key.
  const result: LenientFrontmatter = {
    fields: Object.create(null),
    lines: Object.create(null),
    fixes: [],
  };
  for (const chunk of splitIntoChunks(text, firstLine, result.fixes)) {
    if (Object.hasOwn(result.fields, chunk.key)) {
      result.fixes.push({
        line: chunk.line,
        message: `\`${chunk.key}\` is set twice (first on line ${result.lines[chunk.key]}); the later value is used`,
      });
    }
    const value = readChunk(chunk, result.fixes);
    if (!value.ok) return { ...result, error: value.error };
    result.fields[chunk.key] = value.value;
    result.lines[chunk.key] = chunk.line;
  }
  return result;
}

function splitIntoChunks(text: string, firstLine: number, fixes: AgentDiagnostic[]): Chunk[] {
  const chunks: Chunk[] = [];
  text.split('\n').forEach((line, index) => {
    // Commented-out fields (`# permissionMode: acceptEdits`) are comments, not fields.
    if (line.startsWith('#')) return;
    const start = FIELD_START.exec(line);
    const current = chunks.at(-1);
    if (start && current && continuesDescription(current, start[1]!)) {
      current.rest.push(line);
      current.kept.push(firstLine + index);
    } else if (start) {
      if (current && cutsDescription(current, start[1]!)) {
        fixes.push(descriptionCut(current.line, start[1]!, firstLine + index));
      }
      chunks.push({ key: start[1]!, line: firstLine + index, head: start[2]!, rest: [], kept: [] });
    } else if (current) {
      current.rest.push(line);
    } else if (line.trim() !== '') {
      fixes.push({
        line: firstLine + index,
        message: 'ignored text before the first `key: value` line of the frontmatter',
      });
    }
  });
  for (const chunk of chunks) {
    if (chunk.kept.length > 0) {
      fixes.push({
        line: chunk.kept[0]!,
        message: `kept ${chunk.kept.length === 1 ? 'the line' : `${chunk.kept.length} lines`} ${chunk.kept.join(', ')} in \`${chunk.key}\`: they look like \`key: value\` but name no field and follow a description of several lines (example dialogue, say). Indent them, or use a \`|\` block, to make that plain`,
      });
    }
  }
  return chunks;
}

/**
 * A plain description of several lines often holds example dialogue at column 0 (`user: "…"`,
 * `assistant: "…"`, `Context: …`); a key no definition file uses is more of it. A `|` or `>`
 * block ends at column 0 by YAML's own rules, so a line there is not part of it.
 */
function continuesDescription(current: Chunk, key: string): boolean {
  const block = /^[|>]/.test(current.head.trim());
  return current.key === 'description' && !block && hasMoreLines(current) && !isKnownKey(key);
}

/** After a one-line description, such a key is read as a field; then say where the cut is. */
function cutsDescription(current: Chunk, key: string): boolean {
  return current.key === 'description' && !hasMoreLines(current) && !isKnownKey(key);
}

/** The warning for a description that seems cut short where a line starts `key:`. */
export function descriptionCut(
  descriptionLine: number,
  key: string,
  line: number,
): AgentDiagnostic {
  return {
    line,
    message: `\`description\` (line ${descriptionLine}) ends where line ${line} starts \`${key}:\`, read as a field of its own; if that line belongs to the description, indent it or put the description in a \`|\` block`,
  };
}

function hasMoreLines(chunk: Chunk): boolean {
  return chunk.rest.some((line) => line.trim() !== '');
}

type ChunkValue = { ok: true; value: unknown } | { ok: false; error: AgentDiagnostic };

function readChunk(chunk: Chunk, fixes: AgentDiagnostic[]): ChunkValue {
  const rest = dropTrailingBlankLines(chunk.rest);
  const source = [`${chunk.key}: ${chunk.head}`, ...rest].join('\n');
  const lineCounter = new LineCounter();
  const doc = parseYamlLinear(source, lineCounter);
  // One key only: a field that swallowed `key:` lines must not parse as several fields.
  if (doc.errors.length === 0 && isMap(doc.contents) && doc.contents.items.length === 1) {
    const values = yamlValues(doc);
    if (!values.ok) {
      const line = chunk.line - 1 + lineCounter.linePos(values.offset).line;
      return { ok: false, error: { line, message: values.message } };
    }
    const parsed = values.value;
    if (typeof parsed === 'object' && parsed !== null && Object.hasOwn(parsed, chunk.key)) {
      return { ok: true, value: (parsed as Record<string, unknown>)[chunk.key] };
    }
  }
  fixes.push({
    line: chunk.line,
    message: `\`${chunk.key}\` is not valid YAML (${whyInvalid(chunk, rest)}); read it as plain text. Put the value in double quotes or use a \`|\` block to fix it`,
  });
  return { ok: true, value: foldPlainText([chunk.head, ...rest]) };
}

function whyInvalid(chunk: Chunk, rest: string[]): string {
  if (chunk.head.includes(': ')) return 'its value holds an unquoted `: `';
  if (chunk.kept.length > 0) return 'its value holds lines that look like fields';
  if (rest.some((line) => line.trim() === '')) return 'its value is broken over a blank line';
  return 'its value cannot be parsed';
}

/** Joins lines as YAML folds a plain scalar: a line break is a space, a blank line a newline. */
function foldPlainText(lines: string[]): string {
  let text = '';
  let breaks = 0;
  for (const line of lines.map((l) => l.trim())) {
    if (line === '') {
      breaks += 1;
      continue;
    }
    if (text !== '') text += breaks > 0 ? '\n'.repeat(breaks) : ' ';
    text += line;
    breaks = 0;
  }
  return text;
}

function dropTrailingBlankLines(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(0, end);
}
