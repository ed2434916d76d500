// Reads a text file for an agent's prompt from a folder a stranger may have written (a cloned
// repository): its real location must stay inside a given root, so no symlink leads out; it
// must be a regular text file; and only its first bytes up to a cap are read.
import { realpath } from 'node:fs/promises';
import { isRefusedFile, openRegularFile } from '../core/regular-file.js';
import { cutToBytes } from '../definitions/text-limits.js';
import { errorCode, isInside } from '../tools/allowed-path.js';

export type ConfinedText =
  | {
      ok: true;
      text: string;
      /** The file's real location. */
      path: string;
      /** The file's size in bytes, when it was more than the cap (the text is cut). */
      cutFrom?: number;
    }
  /** Nothing there, or a symlink to nothing: not an error, most files are optional. */
  | { ok: false; missing: true }
  /** There, but not read: why, for a warning. */
  | { ok: false; missing?: false; problem: string };

/**
 * @param file absolute path of the file
 * @param root the folder its real location must lie in (itself resolved through symlinks)
 * @param maxBytes how much of it to read; the text is cut at a character boundary
 */
export async function readConfinedText(
  file: string,
  root: string,
  maxBytes: number,
): Promise<ConfinedText> {
  let real: string;
  try {
    real = await realpath(file);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    return { ok: false, problem: `cannot be read (${code ?? String(error)})` };
  }
  const realRoot = await realpath(root).catch(() => root);
  if (!isInside(real, realRoot)) {
    return { ok: false, problem: `leads outside ${realRoot} (to ${real}); not read` };
  }
  let opened: Awaited<ReturnType<typeof openRegularFile>>;
  try {
    opened = await openRegularFile(real);
  } catch (error) {
    if (isRefusedFile(error))
      return { ok: false, problem: `${error.problem}; not read (${error.fix})` };
    return { ok: false, problem: 'cannot be opened' };
  }
  const { handle, stats } = opened;
  try {
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes + 4));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { ok: false, problem: 'is not a text file; not read' };
    const text = cutToBytes(bytes.toString('utf8'), maxBytes);
    return stats.size > maxBytes
      ? { ok: true, text, path: real, cutFrom: stats.size }
      : { ok: true, text, path: real };
  } finally {
    await handle.close();
  }
}
