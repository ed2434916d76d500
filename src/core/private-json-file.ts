// A small JSON file of the person's own (the trust records): read whole and checked, written
// whole to a temporary file and renamed into place (a crash never leaves half a file), mode 0600.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config-error.js';
import { CONFIG_FILE_MAX_BYTES, isRefusedFile, readRegularTextSync } from './regular-file.js';

/**
 * The file's value, or undefined when there is no file.
 * @throws ConfigError naming the file when it cannot be read, or is not `what` (`accepts` says)
 */
export function readPrivateJson<T>(
  path: string,
  check: { what: string; fix: string; accepts: (value: unknown) => value is T },
): T | undefined {
  let text: string;
  try {
    text = readRegularTextSync(path, { maxBytes: CONFIG_FILE_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(path, error.problem, error.fix);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(
      path,
      `cannot be read: ${(error as Error).message}`,
      'fix its permissions',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!check.accepts(value)) throw new ConfigError(path, `is not ${check.what}`, check.fix);
  return value;
}

export function writePrivateJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
