// The Write tool, and the write rule it shares with Edit: an existing file is only replaced when
// this agent has read its current content, checked and written under the file's lock, and always
// atomically (temp file + rename).
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { FileState } from '../core/file-state.js';
import { lazy } from '../core/lazy.js';
import { readRegularFile } from '../core/regular-file.js';
import { defineTool, type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { errorCode, resolveToolPath, statIfExists } from './allowed-path.js';
import { hashContent } from './file-state.js';
import { changesOneFile } from './file-tool-kinds.js';
import { withFileLock } from './file-write-lock.js';
import { splitLines } from './text-file.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';

export const writeInputSchema = lazy(() =>
  z.object({
    file_path: z
      .string()
      .min(1)
      .describe(
        'The file to write: an absolute path, or a path relative to the working directory. Missing parent directories are created.',
      ),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

export const writeTool = defineTool({
  name: 'Write',
  description: [
    'Writes a file to the local filesystem, replacing it if it exists.',
    '',
    '- If the file already exists you must Read it first, and it must not have changed since; otherwise the write is refused and you are asked to read it again.',
    '- Prefer Edit for changing part of an existing file: it sends only the change. Use Write for new files or complete rewrites.',
    '- Parent directories are created as needed. The file is replaced atomically, so it is never left half-written.',
    '- Do not create documentation or README files unless asked to.',
  ].join('\n'),
  get inputSchema() {
    return writeInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.Write,
  ...changesOneFile,
  async call(input, ctx) {
    return changeFile(input.file_path, ctx, async (file) => {
      const written = await file.replace(input.content);
      if (!written.ok) return toolError(written.message);
      const lines = splitLines(input.content).length;
      const verb = file.bytes === undefined ? 'Created' : 'Updated';
      return `${verb} ${file.shown} (${lines} ${lines === 1 ? 'line' : 'lines'}).`;
    });
  },
});

/** A file this agent may replace, held under its lock while the change runs. */
export interface WritableFile {
  /** The path as the model is shown it. */
  shown: string;
  /** What the file holds now; undefined when it does not exist yet. */
  bytes: Buffer | undefined;
  /** Replaces `bytes` with `content` atomically and records it as read, unless it changed meanwhile. */
  replace(content: string): Promise<WriteOutcome>;
}

/**
 * The write rule Write and Edit share: resolves the tool's path, takes the file's lock and runs
 * `change` with the file, provided this agent has read its current content; otherwise the error
 * result that says why. Checked, planned and written under the lock: no other agent's write fits
 * between.
 */
export async function changeFile(
  filePath: string,
  ctx: ToolContext,
  change: (file: WritableFile) => Promise<ToolOutput>,
): Promise<ToolOutput> {
  const target = await resolveToolPath(filePath, ctx);
  if (!target.ok) return toolError(target.message);
  const { path: file, shown } = target;
  return withFileLock(file, async () => {
    const current = await readCurrentForWrite(file, shown, ctx.fileState);
    if (!current.ok) return toolError(current.message);
    return change({
      shown,
      bytes: current.bytes,
      replace: (content) => writeAndRecord({ file, shown }, content, ctx.fileState, current),
    });
  });
}

type CurrentContent =
  | {
      ok: true;
      /** undefined when the file does not exist yet */
      bytes: Buffer | undefined;
    }
  | { ok: false; message: string };

/**
 * The file's current bytes, provided this agent may replace them: it has read the file and the
 * content is still what it read. A content hash decides, not mtime: mtime misses a change within
 * the same clock tick and flags a `touch` that changed nothing.
 */
async function readCurrentForWrite(
  file: string,
  shown: string,
  fileState: FileState,
): Promise<CurrentContent> {
  const stats = await statIfExists(file);
  if (stats === undefined) return { ok: true, bytes: undefined };
  if (stats.isDirectory()) return { ok: false, message: `${shown} is a directory, not a file.` };
  if (!stats.isFile()) {
    return { ok: false, message: `${shown} is not a regular file (a device, socket or pipe).` };
  }
  const snapshot = fileState.get(file);
  if (snapshot === undefined) {
    return {
      ok: false,
      message: `${shown} has not been read yet. Read it first, then write or edit it.`,
    };
  }
  // Through the descriptor's own fstat: a file swapped for a FIFO since the stat is refused.
  const bytes = await readRegularFile(file, { maxBytes: Number.POSITIVE_INFINITY });
  if (snapshot.hash !== hashContent(bytes)) return { ok: false, message: changedMessage(shown) };
  return { ok: true, bytes };
}

function changedMessage(shown: string): string {
  return `${shown} has changed since you last read it (the user, a formatter or another agent modified it). Read it again, then redo your change.`;
}

type WriteOutcome = { ok: true } | { ok: false; message: string };

/**
 * Writes atomically over the content `current` found, then records the new content as read so
 * consecutive edits work. Call it under the file's lock, right after `readCurrentForWrite`.
 */
async function writeAndRecord(
  target: { file: string; shown: string },
  content: string,
  fileState: FileState,
  current: { bytes: Buffer | undefined },
): Promise<WriteOutcome> {
  const mtimeMs = await writeFileAtomic(target.file, content, current.bytes);
  if (mtimeMs === 'changed') {
    return {
      ok: false,
      message:
        current.bytes === undefined
          ? `${target.shown} was created by someone else while you were writing it. Read it, then redo your change.`
          : changedMessage(target.shown),
    };
  }
  fileState.set(target.file, { hash: hashContent(Buffer.from(content, 'utf8')), mtimeMs });
  return { ok: true };
}

/**
 * Writes to a temp file in the same directory and renames it over the target, so readers see the
 * old file or the new one, never a mix. Keeps an existing file's permissions. Returns the new
 * mtime, or `changed` when the target no longer holds `replaces` (undefined: no file) at the last
 * moment: the lock keeps warren's agents out, this check narrows the window for other programs to
 * the rename itself, and a new file is linked into place so it never replaces one made meanwhile.
 */
export async function writeFileAtomic(
  file: string,
  content: string,
  replaces: Buffer | undefined,
): Promise<number | 'changed'> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const mode = await stat(file).then(
    (stats) => stats.mode & 0o7777,
    () => undefined,
  );
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', mode ?? 0o666);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(content, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    const placed =
      replaces === undefined
        ? await linkIntoPlace(temp, file)
        : await renameOver(temp, file, replaces);
    if (!placed) {
      await unlink(temp).catch(() => {});
      return 'changed';
    }
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  return (await stat(file)).mtimeMs;
}

/** Renames the temp file over `file` if it still holds `expected`. */
async function renameOver(temp: string, file: string, expected: Buffer): Promise<boolean> {
  const now = await readRegularFile(file, { maxBytes: Number.POSITIVE_INFINITY }).catch(
    () => undefined,
  );
  if (now === undefined || !now.equals(expected)) return false;
  await rename(temp, file);
  return true;
}

/** Creates `file` from the temp file only if nothing is there yet; false if something is. */
async function linkIntoPlace(temp: string, file: string): Promise<boolean> {
  try {
    await link(temp, file);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // A file system without hard links: check, then rename, which is the best it allows.
    if ((await statIfExists(file)) !== undefined) return false;
    await rename(temp, file);
    return true;
  }
  await unlink(temp);
  return true;
}
