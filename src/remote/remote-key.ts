// The remote key shared by parents and workers (signed-envelope.ts): made by `warren restate
// keygen`, read from WARREN_REMOTE_KEY or a key file, several at once while one is rotated in.
// A key is never printed back, not even in part.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/config-error.js';

/** What keygen makes: a prefix that says what it is, and 256 random bits. */
const PREFIX = 'wrk1_';

/** A key shorter than this is refused: a guessable key signs for anyone. */
const MIN_KEY_CHARS = 32;

const KEYGEN_FIX = 'make one with `warren restate keygen`';

export function generateRemoteKey(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The keys from `--remote-key-file` (one a line, `#` comments) or else WARREN_REMOTE_KEY
 * (separated by commas or spaces); the first signs. Undefined when neither is set.
 * @throws ConfigError naming the flag or variable, never the key.
 */
export function readRemoteKeys(
  keyFile: string | undefined,
  env: Record<string, string | undefined>,
): string[] | undefined {
  if (keyFile !== undefined) {
    const where = `--remote-key-file ${keyFile}`;
    let text: string;
    try {
      // A FIFO or device would be waited on, not read: only a regular file is a key file.
      if (!statSync(keyFile).isFile()) throw new Error('not a regular file');
      text = readFileSync(keyFile, 'utf8');
    } catch (error) {
      throw new ConfigError(where, `cannot be read (${(error as Error).message.split('\n')[0]})`);
    }
    const keys = text
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    return checked(keys, where);
  }
  const value = env.WARREN_REMOTE_KEY?.trim();
  if (!value) return undefined;
  return checked(value.split(/[\s,]+/).filter(Boolean), 'WARREN_REMOTE_KEY');
}

/** What this process took from WARREN_REMOTE_KEY, once: later runs of it (the TUI) reuse it. */
let fromEnvironment: string[] | undefined;

/**
 * This process's keys (`readRemoteKeys` of its flag and environment), with WARREN_REMOTE_KEY
 * then removed from its environment: the commands, hooks and MCP servers it starts never
 * inherit the key, so a tool call cannot print it.
 */
export function takeRemoteKeys(keyFile: string | undefined): string[] | undefined {
  const fromFile = keyFile === undefined ? undefined : readRemoteKeys(keyFile, {});
  if (!fromFile) fromEnvironment = readRemoteKeys(undefined, process.env) ?? fromEnvironment;
  delete process.env.WARREN_REMOTE_KEY;
  return fromFile ?? fromEnvironment;
}

function checked(keys: string[], where: string): string[] {
  if (keys.length === 0) throw new ConfigError(where, 'holds no key', KEYGEN_FIX);
  keys.forEach((key, index) => {
    if (key.length < MIN_KEY_CHARS) {
      throw new ConfigError(
        where,
        `key ${index + 1} is ${key.length} characters long, shorter than the ${MIN_KEY_CHARS} a key needs`,
        KEYGEN_FIX,
      );
    }
  });
  return keys;
}
