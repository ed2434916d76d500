// The Read tool: a text file as numbered lines, a page at a time, recorded in the agent's file
// state so Write and Edit can tell whether the agent has seen the current content.
import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { isRefusedFile, readRegularFile } from '../core/regular-file.js';
import { defineTool, type ToolOutput, toolError } from '../core/tool.js';
import { errorCode, resolveToolPath } from './allowed-path.js';
import { hashContent } from './file-state.js';
import { readsOneFile } from './file-tool-kinds.js';
import { looksBinary, MAX_FILE_BYTES, splitLines } from './text-file.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';

const DEFAULT_LINE_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
/** About 25k tokens: more in one result crowds out the conversation. */
const MAX_OUTPUT_CHARS = 100_000;
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp tiff psd heic avif pdf zip gz tgz bz2 xz 7z rar tar zst jar war ' +
    'class exe dll so dylib o a lib obj bin dat wasm pyc pyo node mp3 mp4 m4a wav flac ogg mov avi ' +
    'mkv webm woff woff2 ttf otf eot sqlite sqlite3 db doc docx xls xlsx ppt pptx dmg iso'
  ).split(' '),
);

export const readInputSchema = lazy(() =>
  z.object({
    file_path: z
      .string()
      .min(1)
      .describe('The file to read: an absolute path, or a path relative to the working directory.'),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'The 1-based line number to start reading at. Only needed for files too long to read at once.',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`How many lines to read (default ${DEFAULT_LINE_LIMIT}).`),
  }),
);

export const readTool = defineTool({
  name: 'Read',
  description: [
    'Reads a text file from the local filesystem.',
    '',
    '- file_path may be absolute or relative to the working directory; it must lie inside the allowed directories.',
    `- By default it reads up to ${DEFAULT_LINE_LIMIT} lines from the start of the file. For longer files, pass offset and limit to read a page at a time; the result says which lines it shows and how to read the rest.`,
    `- Lines longer than ${MAX_LINE_CHARS} characters are cut off, with a marker.`,
    '- Output is numbered like `cat -n`: the line number, a tab, then the line. The number and tab are not part of the file: leave them out when you copy text into Edit.',
    '- Reads files only, not directories: list a directory with Glob. Binary files (images, archives, executables) are refused.',
    '- You must Read a file before you can Edit or overwrite it with Write. When several files may be useful, read them in parallel.',
  ].join('\n'),
  get inputSchema() {
    return readInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.Read,
  ...readsOneFile,
  async call(input, ctx) {
    const target = await resolveToolPath(input.file_path, ctx);
    if (!target.ok) return toolError(target.message);
    const { path: file, shown } = target;
    const loaded = await loadTextFile(file, shown);
    if (!loaded.ok) return toolError(loaded.message);
    // Every successful read counts as "read", partial pages too, as in Claude Code: Write and
    // Edit use the snapshot to refuse stale content, and Edit checks its old_string against the
    // real file anyway. Requiring one full read would make files longer than a page uneditable.
    ctx.fileState.set(file, {
      hash: hashContent(loaded.bytes),
      mtimeMs: loaded.mtimeMs,
    });
    return formatPage(loaded.text, { shown, offset: input.offset, limit: input.limit });
  },
});

type LoadedFile =
  | { ok: true; text: string; bytes: Buffer; mtimeMs: number }
  | { ok: false; message: string };

async function loadTextFile(file: string, shown: string): Promise<LoadedFile> {
  let stats: Stats;
  try {
    stats = await stat(file);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { ok: false, message: await missingFileMessage(file, shown) };
    }
    if (code === 'EACCES' || code === 'EPERM') {
      return { ok: false, message: `Permission denied: cannot read ${shown}.` };
    }
    throw error;
  }
  if (stats.isDirectory()) {
    return {
      ok: false,
      message: `${shown} is a directory, not a file. List its contents with Glob (for example pattern "*" with path "${shown}").`,
    };
  }
  // Opening a FIFO would wait for a writer forever; devices never end.
  if (!stats.isFile()) {
    return { ok: false, message: `${shown} is not a regular file (a device, socket or pipe).` };
  }
  if (BINARY_EXTENSIONS.has(path.extname(file).slice(1).toLowerCase())) {
    return {
      ok: false,
      message: `${shown} is a binary file (${path.extname(file)}); Read only shows text files.`,
    };
  }
  if (stats.size > MAX_FILE_BYTES) {
    return {
      ok: false,
      message: `${shown} is ${formatBytes(stats.size)}, more than Read loads (${formatBytes(MAX_FILE_BYTES)}). Search it with Grep, or show a part with Bash (for example \`sed -n '1,100p' ${shown}\`).`,
    };
  }
  // Read through the descriptor's own fstat: a file swapped for a FIFO since the stat is refused.
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, { maxBytes: MAX_FILE_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) return { ok: false, message: `${shown} ${error.problem}.` };
    throw error;
  }
  if (looksBinary(bytes)) {
    return {
      ok: false,
      message: `${shown} looks like a binary file (it contains NUL bytes); Read only shows text files.`,
    };
  }
  return { ok: true, text: bytes.toString('utf8'), bytes, mtimeMs: stats.mtimeMs };
}

interface PageOptions {
  shown: string;
  offset: number | undefined;
  limit: number | undefined;
}

function formatPage(text: string, options: PageOptions): ToolOutput {
  const lines = splitLines(text);
  if (lines.length === 0) return `(${options.shown} exists but is empty.)`;
  const start = Math.max(1, options.offset ?? 1);
  if (start > lines.length) {
    return {
      output: `offset ${start} is past the end of ${options.shown}, which has ${lines.length} ${lines.length === 1 ? 'line' : 'lines'}.`,
      isError: true,
    };
  }
  const wanted = Math.min(lines.length, start - 1 + (options.limit ?? DEFAULT_LINE_LIMIT));
  const numbered: string[] = [];
  let chars = 0;
  for (let index = start - 1; index < wanted; index++) {
    const line = numberedLine(lines[index] ?? '', index + 1);
    if (numbered.length > 0 && chars + line.length > MAX_OUTPUT_CHARS) break;
    numbered.push(line);
    chars += line.length + 1;
  }
  const last = start + numbered.length - 1;
  const body = numbered.join('\n');
  if (start === 1 && last === lines.length) return body;
  const cut = last < wanted ? ' (the output limit was reached)' : '';
  const more = last < lines.length ? ` To read more, call Read with offset ${last + 1}.` : '';
  return `${body}\n\n(Showing lines ${start}-${last} of ${lines.length}${cut}.${more})`;
}

/** Lines as `cat -n` prints them, numbered from `firstLineNumber`, long lines cut off. */
export function formatNumberedLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, index) => numberedLine(line, firstLineNumber + index)).join('\n');
}

function numberedLine(line: string, lineNumber: number): string {
  const text =
    line.length > MAX_LINE_CHARS
      ? `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${line.length} characters]`
      : line;
  return `${String(lineNumber).padStart(6)}\t${text}`;
}

async function missingFileMessage(file: string, shown: string): Promise<string> {
  const dir = path.dirname(file);
  const names = await readdir(dir).catch(() => undefined);
  if (names === undefined) {
    return `File does not exist: ${shown} (its directory does not exist either).`;
  }
  const similar = similarNames(path.basename(file), names).map((name) =>
    path.join(path.dirname(shown), name),
  );
  const hint = similar.length > 0 ? ` Did you mean ${similar.join(', ')}?` : '';
  return `File does not exist: ${shown}.${hint}`;
}

/** Cheap near misses: the same name in another case, or the same stem with another extension. */
function similarNames(wanted: string, names: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  const stem = stemOf(lower);
  return names
    .filter((name) => name !== wanted)
    .filter((name) => name.toLowerCase() === lower || stemOf(name.toLowerCase()) === stem)
    .sort()
    .slice(0, 3);
}

function stemOf(name: string): string {
  const ext = path.extname(name);
  return ext === '' ? name : name.slice(0, -ext.length);
}

function formatBytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
