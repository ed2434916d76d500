import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import { findLatestSession } from './latest-session.js';

const sandbox = useTempDir('warren-latest-');

async function session(id: string, cwd: string, minutesAgo: number, records?: object[]) {
  const dir = path.join(sandbox(), 'sessions');
  await mkdir(dir, { recursive: true });
  const lines = records ?? [{ v: 1, type: 'run_start', agentId: 'm', depth: 0, cwd }];
  const file = path.join(dir, `${id}.jsonl`);
  await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const when = new Date(Date.now() - minutesAgo * 60_000);
  await utimes(file, when, when);
  return dir;
}

describe('the latest session of a directory', () => {
  it('is the one of that directory whose transcript was written last', async () => {
    const here = sandbox();
    await session('a', here, 30);
    await session('b', here, 10);
    const dir = await session('c', path.join(here, 'other'), 1);
    expect(findLatestSession({ sessionDir: dir, cwd: here })).toBe('b');
  });

  it('belongs to the directory its main agent started in, not a child', async () => {
    const here = sandbox();
    const dir = await session('x', '/elsewhere', 1, [
      { v: 1, type: 'run_start', agentId: 'c', depth: 1, cwd: here },
      { v: 1, type: 'run_start', agentId: 'm', depth: 0, cwd: '/elsewhere' },
    ]);
    await writeFile(path.join(dir, 'notes.txt'), 'not a session');
    await writeFile(path.join(dir, '.hidden.jsonl'), '{}');
    await writeFile(path.join(dir, 'garbage.jsonl'), '\u0000\u0001 not json');
    expect(() => findLatestSession({ sessionDir: dir, cwd: here })).toThrow(
      `--continue: no session of ${here} in ${dir}`,
    );
  });

  it('is none when the session folder does not exist', () => {
    expect(() =>
      findLatestSession({ sessionDir: path.join(sandbox(), 'none'), cwd: sandbox() }),
    ).toThrow(/no session of/);
  });
});
