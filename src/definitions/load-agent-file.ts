// Loads one definition file into a load entry: Markdown with frontmatter (warren, Claude Code,
// opencode, Gemini CLI) or Codex's TOML. Never throws: a file that cannot be used becomes an
// error entry that names the line and the fix.

import path from 'node:path';
import { messageOf } from '../core/error-message.js';
import { isRefusedFile, readRegularFile } from '../core/regular-file.js';
import type { AgentFileFormat, AgentSource, AgentSourceKind } from './agent-definition.js';
import type { AgentDiagnostic, AgentLoadEntry } from './agent-load-entry.js';
import { buildAgentDefinition } from './build-agent-definition.js';
import { parseCodexAgentFile } from './codex-agent-file.js';
import { splitFrontmatter } from './frontmatter.js';
import { DEFINITION_FILE_MAX_BYTES } from './frontmatter-cap.js';
import { readFrontmatterFields } from './frontmatter-fields.js';
import { mapGeminiFields } from './gemini-fields.js';
import type { MappedFields } from './mapped-fields.js';
import { takeRemoteAgentFields } from './remote-agent-fields.js';

export interface LoadAgentFileOptions {
  path: string;
  /** The precedence level the file was found at. */
  kind: AgentSourceKind;
  /** How to read it; default `codex` for `*.toml`, else `warren` (which reads every Markdown dialect). */
  format?: AgentFileFormat;
}

export async function loadAgentFile(options: LoadAgentFileOptions): Promise<AgentLoadEntry> {
  let text: string;
  try {
    text = (await readRegularFile(options.path, { maxBytes: DEFINITION_FILE_MAX_BYTES })).toString(
      'utf8',
    );
  } catch (error) {
    if (isRefusedFile(error)) {
      return errorEntry(options, { message: `the file ${error.problem} (${error.fix})` });
    }
    return errorEntry(options, { message: `cannot read the file: ${(error as Error).message}` });
  }
  return parseAgentFile({ ...options, text });
}

/** The error entry of a file that cannot be used. */
function errorEntry(options: LoadAgentFileOptions, error: AgentDiagnostic): AgentLoadEntry {
  return {
    name: nameFromPath(options.path),
    source: sourceOf(options),
    status: 'error',
    error,
    warnings: [],
    notes: [],
  };
}

export interface ParseAgentFileOptions extends LoadAgentFileOptions {
  text: string;
}

/** The file's name without `.md` or `.toml`: the agent's name when the file names none. */
function nameFromPath(filePath: string): string {
  return path.basename(filePath).replace(/\.(?:md|toml)$/i, '');
}

function formatOf(options: LoadAgentFileOptions): AgentFileFormat {
  return options.format ?? (/\.toml$/i.test(options.path) ? 'codex' : 'warren');
}

function sourceOf(options: LoadAgentFileOptions): AgentSource {
  return { kind: options.kind, path: options.path, format: formatOf(options) };
}

/**
 * Reads a definition from text already in memory; `path` names the file in diagnostics. Never
 * throws: whatever the text, the result is an entry, and one bad file never stops the others.
 */
export function parseAgentFile(options: ParseAgentFileOptions): AgentLoadEntry {
  try {
    return parseAgentText(options);
  } catch (error) {
    // Every problem a file can have is meant to be found above; this is the net under that.
    const reason = messageOf(error);
    return errorEntry(options, {
      message: `warren could not read this file (${reason.split('\n', 1)[0]}); please report it, with the file, as a warren bug`,
    });
  }
}

function parseAgentText(options: ParseAgentFileOptions): AgentLoadEntry {
  const source = sourceOf(options);
  const fallbackName = nameFromPath(options.path);
  if (source.format === 'codex') {
    return parseCodexAgentFile({ path: options.path, source, fallbackName, text: options.text });
  }
  const split = splitFrontmatter(options.text);
  if (!split.ok) {
    const { problem, fix, line } = split.problem;
    return {
      name: fallbackName,
      source,
      status: 'error',
      error: { message: `${problem}: ${fix}`, line },
      warnings: [],
      notes: [],
    };
  }

  const { parts } = split;
  const read = readFrontmatterFields(parts.frontmatter, parts.frontmatterLine);
  if (read.error) return errorEntry(options, read.error);
  // `kind: remote` (A2A) is read the same in every format, before the format's own fields.
  const remote = takeRemoteAgentFields(read.fields, read.lines);
  if (remote.error) return errorEntry(options, remote.error);
  const mapped: MappedFields =
    source.format === 'gemini'
      ? mapGeminiFields(read.fields, read.lines)
      : { fields: read.fields, lines: read.lines, extra: [], warnings: [], notes: [] };
  if (mapped.error) return { ...errorEntry(options, mapped.error), warnings: mapped.warnings };
  const { fields, lines } = mapped;
  const warnings = [...read.repairs, ...mapped.warnings];
  if (parts.oddCloser) {
    warnings.push({
      line: parts.oddCloser.line,
      message: `the frontmatter is closed by \`${parts.oddCloser.text}\`; write exactly \`---\``,
    });
  }
  if (parts.fixed) {
    warnings.unshift({
      line: parts.frontmatterLine - 1,
      message: `frontmatter found after the file was fixed up (${parts.fixed}); start the file with \`---\` at column 0`,
    });
  }
  if (parts.body !== '') {
    if (fields.prompt !== undefined) {
      warnings.push({
        ...(lines.prompt !== undefined && { line: lines.prompt }),
        message: '`prompt` in the frontmatter is ignored: the body is the system prompt',
      });
    }
    fields.prompt = parts.body;
  } else if (fields.prompt === undefined) {
    fields.prompt = '';
  }

  const built = buildAgentDefinition({
    fields,
    origin: 'file',
    fallbackName,
    source,
    lineOf: (key) => (Object.hasOwn(lines, key) ? lines[key] : undefined),
    missingFieldLine: parts.frontmatterLine - 1,
    extra: mapped.extra,
  });
  const diagnostics = {
    warnings: [...warnings, ...built.warnings],
    notes: [...mapped.notes, ...built.notes],
    ...(built.unknownTools && { unknownTools: built.unknownTools }),
  };
  if (built.error) {
    return { name: built.name, source, status: 'error', error: built.error, ...diagnostics };
  }
  const definition = remote.remote
    ? { ...built.definition, remote: remote.remote }
    : built.definition;
  return { name: built.name, source, status: 'ok', definition, ...diagnostics };
}
