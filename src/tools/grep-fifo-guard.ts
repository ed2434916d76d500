// ripgrep opens every ignore file it meets (.gitignore, .ignore, .rgignore, a repository's
// info/exclude) and waits forever on one that is a FIFO, which a cloned repository can hold. A
// ripgrep search that has not ended after a moment looks for such a file; with one there it is
// stopped and the JavaScript engine, which reads only regular files, searches instead. A
// search that ends in time pays nothing.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { EngineResult, GrepQuery } from './grep-engine.js';
import { searchWithJavaScript } from './grep-javascript.js';
import { searchWithRipgrep } from './grep-ripgrep.js';

/** Long enough for most searches to end first; short next to a search that never will. */
const PATIENCE_MS = 1500;

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

export async function searchWithRipgrepGuarded(query: GrepQuery): Promise<EngineResult> {
  const stop = new AbortController();
  const search = searchWithRipgrep({
    ...query,
    signal: AbortSignal.any([query.signal, stop.signal]),
  });
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), PATIENCE_MS);
  });
  const first = await Promise.race([search.then(() => 'done' as const), patience]).finally(() =>
    clearTimeout(timer),
  );
  if (first === 'done') return search;
  const root = query.rootIsFile ? path.dirname(query.root) : query.root;
  if ((await hostileIgnoreFile(root)) === undefined) return search;
  stop.abort();
  await search.catch(() => undefined);
  return searchWithJavaScript(query);
}

/** The first ignore file ripgrep would open under or above `root` that is not a regular file. */
export async function hostileIgnoreFile(root: string): Promise<string | undefined> {
  for (let dir = root; ; dir = path.dirname(dir)) {
    for (const name of [...IGNORE_FILES, '.git/info/exclude']) {
      const file = path.join(dir, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats !== undefined && !stats.isFile()) return file;
    }
    if (path.dirname(dir) === dir) break;
  }
  return findBelow(root);
}

/** `find` follows symlinks (-L), so a link to a FIFO counts as the FIFO it leads to. */
function findBelow(root: string): Promise<string | undefined> {
  const names = IGNORE_FILES.flatMap((name, i) =>
    i === 0 ? ['-name', name] : ['-o', '-name', name],
  );
  const args = ['-L', root, '-name', '.git', '-prune', '-o', '(', ...names, ')'];
  args.push('!', '-type', 'f', '!', '-type', 'd', '-print', '-quit');
  return new Promise((resolve) => {
    execFile('find', args, { timeout: 30_000 }, (_error, stdout) => {
      const found = stdout.split('\n')[0];
      resolve(found === undefined || found === '' ? undefined : found);
    });
  });
}
