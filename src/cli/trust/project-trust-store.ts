// The person's trust decisions: `$WARREN_HOME/trusted-projects.json` keeps, per project folder,
// the fingerprint of every item trusted (each part's hash), so a later change can be named down
// to the field or the script that changed. Written whole and renamed into place, mode 0600.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import { warrenHome } from '../../core/warren-home.js';
import type { ItemFingerprint } from './trust-item.js';

export interface ProjectRecord {
  trustedAt: string;
  /** Item key (`<file> <field>`) → its fingerprint when trusted. */
  items: Record<string, ItemFingerprint>;
}

interface StoreFile {
  version: 1;
  projects: Record<string, ProjectRecord>;
}

export function projectTrustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(warrenHome(env), 'trusted-projects.json');
}

/** @throws ConfigError when the record exists but cannot be read or is not one */
export function readProjectRecord(
  storePath: string,
  projectDir: string,
): ProjectRecord | undefined {
  return readStore(storePath).projects[projectDir];
}

/** Records the project as trusted at these fingerprints; replaces an older record of it. */
export function recordProjectTrust(
  storePath: string,
  projectDir: string,
  items: Record<string, ItemFingerprint>,
): void {
  const store = readStore(storePath);
  store.projects[projectDir] = { trustedAt: new Date().toISOString(), items };
  mkdirSync(dirname(storePath), { recursive: true, mode: 0o700 });
  const temporary = `${storePath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, storePath);
}

function readStore(storePath: string): StoreFile {
  let text: string;
  try {
    text = readFileSync(storePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, projects: {} };
    throw new ConfigError(
      storePath,
      `cannot be read: ${(error as Error).message}`,
      'fix its permissions',
    );
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoreFile>;
    const { projects } = parsed;
    if (typeof projects === 'object' && projects !== null && !Array.isArray(projects)) {
      return { version: 1, projects };
    }
  } catch {
    // Reported below.
  }
  throw new ConfigError(
    storePath,
    'is not a warren trust record',
    'remove it and trust your projects again with `warren trust`',
  );
}
