// Which repository files may start MCP servers: `$WARREN_HOME/trusted.json` pins each trusted
// file (a project `.mcp.json`, a project agent definition) to the SHA-256 of its content, so an
// edited file must be trusted again before it starts anything.
import { renameSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { CONFIG_FILE_MAX_BYTES, isRefusedFile, readRegularTextSync } from '../core/regular-file.js';
import { warrenHome } from '../core/warren-home.js';
import { sha256Of } from './config-file.js';

/** `changed`: trusted once, edited since. */
export type TrustState = 'trusted' | 'changed' | 'untrusted';

/** Decides whether a file from the repository may start servers. */
export interface McpTrust {
  /** @throws ConfigError when the trust record itself cannot be read */
  trustOf(file: string): TrustState;
}

interface TrustRecord {
  sha256: string;
  trustedAt: string;
}

interface TrustFile {
  version: 1;
  files: Record<string, TrustRecord>;
}

export function trustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(warrenHome(env), 'trusted.json');
}

/** Everything is trusted (`--trust-project`), or what the store records with the same hash. */
export function mcpTrust(options: { trustProject?: boolean; storePath?: string } = {}): McpTrust {
  if (options.trustProject) return { trustOf: () => 'trusted' };
  const store = options.storePath ?? trustStorePath();
  return {
    trustOf(file) {
      let text: string;
      try {
        text = readRegularTextSync(file, { maxBytes: CONFIG_FILE_MAX_BYTES });
      } catch {
        return 'untrusted';
      }
      return trustOfContent(store, file, sha256Of(text));
    },
  };
}

/** What the store says of `file` with this content hash. */
export function trustOfContent(storePath: string, file: string, sha256: string): TrustState {
  const record = readStore(storePath).files[file];
  if (!record) return 'untrusted';
  return record.sha256 === sha256 ? 'trusted' : 'changed';
}

/** Why a file's servers were not started, and how to allow them, for a warning. */
export function untrustedReason(state: TrustState, label: string): string {
  const why = state === 'changed' ? 'it changed since it was trusted' : 'it is not trusted';
  return `${why} (trust this version with \`warren trust ${label}\`, or run with --trust-project)`;
}

/** Records `file` at this content hash; replaces an older record of the same file. */
export async function recordTrust(storePath: string, file: string, sha256: string): Promise<void> {
  const store = readStore(storePath);
  store.files[file] = { sha256, trustedAt: new Date().toISOString() };
  await mkdir(dirname(storePath), { recursive: true });
  // Written whole and renamed into place: a crash never leaves half a file.
  const temporary = `${storePath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, storePath);
}

function readStore(storePath: string): TrustFile {
  let text: string;
  try {
    text = readRegularTextSync(storePath, { maxBytes: CONFIG_FILE_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(storePath, error.problem, error.fix);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, files: {} };
    throw new ConfigError(
      storePath,
      `cannot be read: ${(error as Error).message}`,
      'fix its permissions',
    );
  }
  try {
    const parsed = JSON.parse(text) as Partial<TrustFile>;
    if (typeof parsed.files === 'object' && parsed.files !== null && !Array.isArray(parsed.files)) {
      return { version: 1, files: parsed.files };
    }
  } catch {
    // Reported below.
  }
  throw new ConfigError(
    storePath,
    'is not a warren trust record',
    'remove it and trust the files again with `warren trust <file>`',
  );
}
