// Which repository files may start MCP servers: `$WARREN_HOME/trusted.json` pins each trusted
// file (a project `.mcp.json`, a project agent definition) to the SHA-256 of its content, so an
// edited file must be trusted again before it starts anything.
import { join } from 'node:path';
import { readPrivateJson, writePrivateJson } from '../core/private-json-file.js';
import { CONFIG_FILE_MAX_BYTES, readRegularTextSync } from '../core/regular-file.js';
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
  writePrivateJson(storePath, store);
}

function readStore(storePath: string): TrustFile {
  const store = readPrivateJson(storePath, {
    what: 'a warren trust record',
    fix: 'remove it and trust the files again with `warren trust <file>`',
    accepts: (value): value is Partial<TrustFile> & Pick<TrustFile, 'files'> =>
      isObject(value) && isObject((value as Partial<TrustFile>).files),
  });
  return { version: 1, files: store?.files ?? {} };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
