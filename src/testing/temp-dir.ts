// Real temporary directories for tests: one made on demand, or one per test that vitest creates
// before and removes after it. Internal to warren's own tests; not part of `warren/testing`.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A new empty directory under the OS temp dir, as its real path (macOS links /tmp elsewhere). */
export async function makeTempDir(prefix = 'warren-test-'): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), prefix)));
}

/**
 * A fresh directory for every test of the calling file or `describe`, removed with all it holds
 * after the test. Returns an accessor, since the directory only exists while a test runs.
 */
export function useTempDir(prefix?: string): () => string {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await makeTempDir(prefix);
  });
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (dir === undefined) throw new Error('useTempDir(): the directory exists only during a test');
    return dir;
  };
}
