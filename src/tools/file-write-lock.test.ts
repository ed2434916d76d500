// The per-file lock Write and Edit hold around check-and-write: one holder per file at a time,
// in the order asked, other files never held up, nothing left behind.
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { lockedFileCount, withFileLock } from './file-write-lock.js';

describe('withFileLock', () => {
  it('runs the work for one file one at a time, in the order it was asked for', async () => {
    const log: string[] = [];
    const work = (name: string, ms: number) =>
      withFileLock('/f', async () => {
        log.push(`${name} in`);
        await delay(ms);
        log.push(`${name} out`);
        return name;
      });
    const results = await Promise.all([work('a', 20), work('b', 1), work('c', 5)]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });

  it('never holds up work on another file', async () => {
    const log: string[] = [];
    const slow = withFileLock('/slow', async () => {
      await delay(50);
      log.push('slow');
    });
    await withFileLock('/fast', async () => {
      log.push('fast');
    });
    await slow;
    expect(log).toEqual(['fast', 'slow']);
  });

  it('lets the next one in after a failure, and keeps no entry once every holder is done', async () => {
    const failing = withFileLock('/g', async () => {
      throw new Error('disk full');
    });
    const next = withFileLock('/g', async () => 'ran');
    await expect(failing).rejects.toThrow('disk full');
    await expect(next).resolves.toBe('ran');
    expect(lockedFileCount()).toBe(0);
  });
});
