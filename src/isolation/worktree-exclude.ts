// Keeps agent worktrees out of the main checkout's `git status`: one line in the repository's
// own `.git/info/exclude` (never in the user's .gitignore, which is tracked).
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CONFIG_FILE_MAX_BYTES, readRegularText } from '../core/regular-file.js';
import { errorCode } from '../tools/allowed-path.js';

const EXCLUDE_LINE = '/.warren/worktrees/';

/** Appends in progress, per exclude file: parallel children must not add the line twice. */
const pending = new Map<string, Promise<void>>();

/** Adds `/.warren/worktrees/` to `<commonDir>/info/exclude` unless it is there already. */
export function excludeWorktrees(commonDir: string): Promise<void> {
  const file = path.join(commonDir, 'info', 'exclude');
  const before = pending.get(file) ?? Promise.resolve();
  const next = before.then(() => addLine(file));
  pending.set(file, next);
  const forget = () => {
    if (pending.get(file) === next) pending.delete(file);
  };
  next.then(forget, forget);
  return next;
}

async function addLine(file: string): Promise<void> {
  const text = await readRegularText(file, { maxBytes: CONFIG_FILE_MAX_BYTES }).catch(
    (error: unknown) => {
      if (errorCode(error) === 'ENOENT') return '';
      throw error;
    },
  );
  if (text.split(/\r?\n/).some((line) => line.trim() === EXCLUDE_LINE)) return;
  await mkdir(path.dirname(file), { recursive: true });
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  await appendFile(
    file,
    `${separator}# git worktrees of warren's sub-agents (isolation: worktree)\n${EXCLUDE_LINE}\n`,
  );
}
