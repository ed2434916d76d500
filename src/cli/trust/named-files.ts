// The project's own files a command names (`bash .warren/hook.sh`, `node ./srv.js`,
// `NODE_OPTIONS=--require ./x.cjs`), hashed, so trust in a command covers the scripts it runs:
// an edited script withdraws the trust as an edited command does.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { sha256 } from './trust-item.js';

/** Larger files are pinned by size and the hash of their first bytes. */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

/**
 * Every word of `texts` that names a regular file inside `projectDir`, resolved against each of
 * `bases`; relative path → sha256. Words are cut at blanks, quotes and shell operators, and at
 * `=` (`--require=./x.cjs`): generous on purpose, since hashing a file too many only means a
 * question too many. `$CLAUDE_PROJECT_DIR` and `$WARREN_PROJECT_DIR` are the project folder, as
 * for hooks. Files outside the project are the user's machine, not the repository's: not pinned.
 */
export function namedProjectFiles(
  texts: readonly string[],
  bases: readonly string[],
  projectDir: string,
): Record<string, string> {
  const found: Record<string, string> = {};
  for (const text of texts) {
    const expanded = text.replace(/\$\{?(?:CLAUDE|WARREN)_PROJECT_DIR\}?/g, projectDir);
    for (const word of expanded.split(/[\s'"`;|&()<>=,]+/)) {
      if (word === '' || word === '-' || word.startsWith('-')) continue;
      for (const base of bases) {
        const path = resolve(base, word);
        const inside = relative(projectDir, path);
        if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
        if (found[inside] !== undefined) break;
        const hash = regularFileHash(path);
        if (hash !== undefined) {
          found[inside] = hash;
          break;
        }
      }
    }
  }
  return found;
}

/**
 * The content hash of a regular file; undefined for anything else (a folder, a FIFO, a device:
 * opened without waiting and never read).
 */
export function regularFileHash(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const size = Math.min(stat.size, MAX_HASHED_BYTES);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    const content = buffer.subarray(0, read);
    return stat.size > MAX_HASHED_BYTES
      ? sha256(`${stat.size}:${sha256(content)}`)
      : sha256(content);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
