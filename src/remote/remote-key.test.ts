// The remote key as a person gives it: made by keygen, read from a file (comments, several keys)
// or WARREN_REMOTE_KEY; a short key or an unreadable file is one line naming where, never the key.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../testing/temp-dir.js';
import { generateRemoteKey, readRemoteKeys, takeRemoteKeys } from './remote-key.js';

describe('the remote key', () => {
  const tempDir = useTempDir('warren-key-');

  it('keygen makes 256 random bits with a prefix that says what they are', () => {
    const key = generateRemoteKey();
    expect(key).toMatch(/^wrk1_[A-Za-z0-9_-]{43}$/);
    expect(generateRemoteKey()).not.toBe(key);
  });

  it('is read from WARREN_REMOTE_KEY, several during a rotation', () => {
    const [a, b] = [generateRemoteKey(), generateRemoteKey()];
    expect(readRemoteKeys(undefined, {})).toBeUndefined();
    expect(readRemoteKeys(undefined, { WARREN_REMOTE_KEY: ` ${a} ` })).toEqual([a]);
    expect(readRemoteKeys(undefined, { WARREN_REMOTE_KEY: `${a},${b}` })).toEqual([a, b]);
  });

  it('is read from a key file before the variable, one a line, with comments', async () => {
    const dir = tempDir();
    const [a, b] = [generateRemoteKey(), generateRemoteKey()];
    const file = join(dir, 'remote.key');
    await writeFile(file, `# new key, signs\n${a}\n\n${b}  # old, until its children end\n`);
    expect(readRemoteKeys(file, { WARREN_REMOTE_KEY: generateRemoteKey() })).toEqual([a, b]);
  });

  it("is taken out of the process's environment, so nothing it starts inherits it", () => {
    const key = generateRemoteKey();
    process.env.WARREN_REMOTE_KEY = key;
    expect(takeRemoteKeys(undefined)).toEqual([key]);
    expect(process.env.WARREN_REMOTE_KEY).toBeUndefined();
    // A second run of the same process (the terminal UI's next session) still has it.
    expect(takeRemoteKeys(undefined)).toEqual([key]);
  });

  it('refuses a short key, an empty file, and what is not a file, naming where and not the key', async () => {
    expect(() => readRemoteKeys(undefined, { WARREN_REMOTE_KEY: 'hunter2' })).toThrow(
      /^WARREN_REMOTE_KEY: key 1 is 7 characters long, shorter than the 32 a key needs \(make one with `warren restate keygen`\)$/,
    );
    const dir = tempDir();
    await writeFile(join(dir, 'empty.key'), '# nothing yet\n');
    expect(() => readRemoteKeys(join(dir, 'empty.key'), {})).toThrow(/empty\.key: holds no key/);
    expect(() => readRemoteKeys(join(dir, 'missing.key'), {})).toThrow(
      /--remote-key-file .*missing\.key: cannot be read/,
    );
    // A folder (or a FIFO, a device) is not read, nor waited on.
    expect(() => readRemoteKeys(dir, {})).toThrow(/cannot be read \(not a regular file\)/);
  });
});
