// Finds a symlink leading out of the allowed directories in the trees a command would walk while
// following links (`grep -R`, `find -L`, `diff -r`): such a walk reads whatever the link reaches.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { CommandScope } from './command-scope.js';
import { physicalPath } from './physical-path.js';

/** Beyond this many entries a tree is too large to check before running a command. */
const MAX_ENTRIES = 50_000;

/**
 * Why `program` walking `roots` (real directory paths) and following every symlink could leave the
 * allowed directories, or undefined. Links that stay inside are followed here too, so a link to
 * another allowed tree is checked through.
 */
export function linkOutProblem(
  program: string,
  roots: readonly string[],
  scope: CommandScope,
): string | undefined {
  const queue = [...new Set(roots)];
  const seen = new Set(queue);
  let entries = 0;
  for (const dir of queue) {
    for (const entry of readEntries(dir)) {
      if (++entries > MAX_ENTRIES) {
        return `\`${program}\` follows symlinks here, through more than ${MAX_ENTRIES} files: too many to check for links that lead outside`;
      }
      const entryPath = path.join(dir, entry.name);
      let next: string | undefined;
      if (entry.isSymbolicLink()) {
        const target = physicalPath(entry.name, dir);
        if (target.kind === 'missing') continue;
        if (target.kind !== 'found' || !scope.isAllowed(target.path)) {
          const where =
            target.kind === 'found' || target.kind === 'system' ? target.path : 'a loop';
          return `\`${program}\` follows symlinks here, and ${entryPath} leads to ${where}, outside the allowed directories`;
        }
        if (target.isDirectory) next = target.path;
      } else if (entry.isDirectory()) {
        next = entryPath;
      }
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return undefined;
}

function readEntries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
