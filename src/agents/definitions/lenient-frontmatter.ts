// The fallback for frontmatter that is not valid YAML (2% of real files): a line `key: …` at
// column 0 starts a field, every other line continues it, and each field is parsed on its own.
import { isMap, parseDocument } from 'yaml';
import type { AgentDiagnostic } from './agent-load-entry.js';

export interface LenientFrontmatter {
  fields: Record<string, unknown>;
  /** File line of each field's key. */
  lines: Record<string, number>;
  /** What was recovered and how, one entry per repaired field. */
  fixes: AgentDiagnostic[];
}

interface Chunk {
  key: string;
  line: number;
  /** The text after `key:` on the first line. */
  head: string;
  rest: string[];
}

const FIELD_START = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+|$)(.*)$/;

/** @param firstLine file line of the frontmatter's first line */
export function parseFrontmatterLeniently(text: string, firstLine: number): LenientFrontmatter {
  const result: LenientFrontmatter = { fields: {}, lines: {}, fixes: [] };
  for (const chunk of splitIntoChunks(text, firstLine, result.fixes)) {
    if (chunk.key in result.fields) {
      result.fixes.push({
        line: chunk.line,
        message: `\`${chunk.key}\` is set twice (first on line ${result.lines[chunk.key]}); the later value is used`,
      });
    }
    result.fields[chunk.key] = readChunk(chunk, result.fixes);
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
    if (start) {
      chunks.push({ key: start[1]!, line: firstLine + index, head: start[2]!, rest: [] });
    } else if (current) {
      current.rest.push(line);
    } else if (line.trim() !== '') {
      fixes.push({
        line: firstLine + index,
        message: 'ignored text before the first `key: value` line of the frontmatter',
      });
    }
  });
  return chunks;
}

function readChunk(chunk: Chunk, fixes: AgentDiagnostic[]): unknown {
  const rest = dropTrailingBlankLines(chunk.rest);
  const source = [`${chunk.key}: ${chunk.head}`, ...rest].join('\n');
  const doc = parseDocument(source);
  if (doc.errors.length === 0 && isMap(doc.contents)) {
    const parsed: unknown = doc.toJS();
    if (typeof parsed === 'object' && parsed !== null && chunk.key in parsed) {
      return (parsed as Record<string, unknown>)[chunk.key];
    }
  }
  fixes.push({
    line: chunk.line,
    message: `\`${chunk.key}\` is not valid YAML (${whyInvalid(chunk, rest)}); read it as plain text. Put the value in double quotes or use a \`|\` block to fix it`,
  });
  return foldPlainText([chunk.head, ...rest]);
}

function whyInvalid(chunk: Chunk, rest: string[]): string {
  if (chunk.head.includes(': ')) return 'its value holds an unquoted `: `';
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
