// The Edit tool: exact string replacement in a file the agent has read, written atomically.
// When the text is missing or ambiguous it says why, so the model can fix its next attempt.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type ToolOutput, toolError } from '../core/tool.js';
import { changesOneFile } from './file-tool-kinds.js';
import { formatNumberedLines } from './read.js';
import { splitLines } from './text-file.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';
import { changeFile } from './write.js';

const SNIPPET_CONTEXT_LINES = 3;
const MAX_SNIPPET_LINES = 30;
const MAX_LISTED_LINES = 10;

export const editInputSchema = lazy(() =>
  z.object({
    file_path: z
      .string()
      .min(1)
      .describe(
        'The file to change: an absolute path, or a path relative to the working directory.',
      ),
    old_string: z
      .string()
      .describe(
        'The exact text to replace, including whitespace and indentation, without the line-number prefix Read shows. It must occur exactly once unless replace_all is true.',
      ),
    new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
    replace_all: z
      .boolean()
      .optional()
      .describe('Replace every occurrence of old_string instead of exactly one (default false).'),
  }),
);

export const editTool = defineTool({
  name: 'Edit',
  description: [
    'Replaces exact text in a file.',
    '',
    '- You must Read the file first, and it must not have changed since; otherwise the edit is refused and you are asked to read it again.',
    '- old_string must match the file exactly, whitespace and indentation included. Copy it from the Read output without the line-number prefix (the number and the tab before each line).',
    '- The edit fails if old_string occurs more than once: add surrounding lines to make it unique, or set replace_all to change every occurrence (useful for renaming).',
    '- An empty old_string creates a new file containing new_string, if the file does not exist yet.',
    '- The result shows the edited lines so you can check them.',
  ].join('\n'),
  get inputSchema() {
    return editInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.Edit,
  ...changesOneFile,
  async call(input, ctx) {
    if (input.old_string === input.new_string) {
      return toolError('old_string and new_string are the same, so there is nothing to change.');
    }
    return changeFile(input.file_path, ctx, async (file) => {
      const { shown } = file;
      const content = file.bytes?.toString('utf8');

      if (input.old_string === '') {
        if (content !== undefined && content !== '') {
          return toolError(
            `old_string is empty, which only creates a new file, but ${shown} already exists. Give the text to replace.`,
          );
        }
        const written = await file.replace(input.new_string);
        if (!written.ok) return toolError(written.message);
        return `${content === undefined ? 'Created' : 'Filled'} ${shown}.`;
      }
      if (content === undefined) {
        return toolError(`File does not exist: ${shown}. Create new files with Write.`);
      }

      const edit = planEdit(content, input, shown);
      if (!edit.ok) return toolError(edit.message);
      const written = await file.replace(edit.content);
      if (!written.ok) return toolError(written.message);
      return describeEdit({ shown, edit, replaceAll: input.replace_all === true });
    });
  },
});

interface EditRequest {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

type PlannedEdit =
  | { ok: true; content: string; count: number; firstIndex: number; insertedLength: number }
  | { ok: false; message: string };

function planEdit(content: string, request: EditRequest, shown: string): PlannedEdit {
  let oldText = request.old_string;
  let newText = request.new_string;
  let found = occurrences(content, oldText);
  // Models write "\n"; a CRLF file would never match. Match and write in the file's convention.
  if (found.length === 0 && content.includes('\r\n') && !oldText.includes('\r')) {
    oldText = oldText.replaceAll('\n', '\r\n');
    newText = newText.replaceAll('\n', '\r\n');
    found = occurrences(content, oldText);
  }
  const first = found[0];
  if (first === undefined) {
    return { ok: false, message: notFoundMessage(content, request.old_string, shown) };
  }
  if (found.length > 1 && request.replace_all !== true) {
    const lines = found.slice(0, MAX_LISTED_LINES).map((index) => lineNumberAt(content, index));
    const more = found.length > MAX_LISTED_LINES ? ', …' : '';
    return {
      ok: false,
      message: `old_string occurs ${found.length} times in ${shown} (lines ${lines.join(', ')}${more}). Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to change every occurrence.`,
    };
  }
  const updated =
    request.replace_all === true
      ? content.split(oldText).join(newText)
      : content.slice(0, first) + newText + content.slice(first + oldText.length);
  return {
    ok: true,
    content: updated,
    count: found.length,
    firstIndex: first,
    insertedLength: newText.length,
  };
}

/** Start indexes of non-overlapping occurrences, as a replacement would see them. */
function occurrences(content: string, text: string): number[] {
  const found: number[] = [];
  for (
    let index = content.indexOf(text);
    index !== -1;
    index = content.indexOf(text, index + text.length)
  ) {
    found.push(index);
  }
  return found;
}

function notFoundMessage(content: string, oldString: string, shown: string): string {
  const base = `old_string was not found in ${shown}.`;
  if (/^ *\d+\t/m.test(oldString)) {
    return `${base} It seems to include the line-number prefix from Read output (spaces, a number, a tab); leave that out and copy only the file's text.`;
  }
  const loose = looseMatchLine(content, oldString);
  if (loose !== undefined) {
    return `${base} Text that matches apart from whitespace starts at line ${loose}: the indentation or spacing differs. Copy it exactly as the file has it.`;
  }
  return `${base} It must match the file exactly, including whitespace, indentation and line breaks. Read the file again and copy the text from it.`;
}

/** The first line where old_string matches once whitespace runs are ignored, if any does. */
function looseMatchLine(content: string, oldString: string): number | undefined {
  const squash = (line: string) => line.trim().replace(/\s+/g, ' ');
  const fileLines = content.split('\n').map(squash);
  const wanted = oldString.split('\n').map(squash);
  if (wanted.every((line) => line === '')) return undefined;
  const last = wanted.length - 1;
  const matchesAt = (start: number) =>
    wanted.every((want, offset) => {
      const line = fileLines[start + offset] ?? '';
      if (last === 0) return line.includes(want);
      if (offset === 0) return line.endsWith(want);
      if (offset === last) return line.startsWith(want);
      return line === want;
    });
  for (let start = 0; start + last < fileLines.length; start++) {
    if (matchesAt(start)) return start + 1;
  }
  return undefined;
}

interface EditSummary {
  shown: string;
  edit: Extract<PlannedEdit, { ok: true }>;
  replaceAll: boolean;
}

function describeEdit({ shown, edit, replaceAll }: EditSummary): ToolOutput {
  if (replaceAll) {
    return `Edited ${shown}: replaced ${edit.count} ${edit.count === 1 ? 'occurrence' : 'occurrences'}.`;
  }
  const firstLine = lineNumberAt(edit.content, edit.firstIndex);
  const lastLine = lineNumberAt(edit.content, edit.firstIndex + edit.insertedLength);
  const lines = splitLines(edit.content);
  if (lines.length === 0) return `Edited ${shown}; it is now empty.`;
  const from = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length, lastLine + SNIPPET_CONTEXT_LINES, from + MAX_SNIPPET_LINES - 1);
  const snippet = formatNumberedLines(lines.slice(from - 1, to), from);
  return `Edited ${shown}. The changed region now reads:\n${snippet}`;
}

function lineNumberAt(content: string, index: number): number {
  let line = 1;
  for (let at = content.indexOf('\n'); at !== -1 && at < index; at = content.indexOf('\n', at + 1))
    line++;
  return line;
}
