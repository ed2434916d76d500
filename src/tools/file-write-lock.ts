// One lock per file across every agent of the process: Write and Edit hold it from the check that
// the agent saw the current content until the new content is in place, so two agents can never
// both pass the check and one silently overwrite the other.

/** The tail of each path's queue: the work that must end before the next may start. */
const tails = new Map<string, Promise<void>>();

/**
 * Runs `work` once every earlier `withFileLock` for the same `file` (a canonical path) has
 * ended, and before any later one starts. In-process only: another program writing the file is
 * caught by the content check inside the lock, not kept out by it.
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(file) ?? Promise.resolve();
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before.then(() => held);
  tails.set(file, tail);
  await before;
  try {
    return await work();
  } finally {
    release();
    // The last one out leaves no entry behind, so the map holds only files being written.
    if (tails.get(file) === tail) tails.delete(file);
  }
}

/** How many files are locked or waited for right now; for tests. */
export function lockedFileCount(): number {
  return tails.size;
}
