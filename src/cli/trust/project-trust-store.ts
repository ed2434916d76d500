// The person's trust decisions: `$WARREN_HOME/trusted-projects.json` keeps, per project folder,
// the fingerprint of every item trusted (each part's hash), so a later change can be named down
// to the field or the script that changed. Written whole and renamed into place, mode 0600.
import { join } from 'node:path';
import { readPrivateJson, writePrivateJson } from '../../core/private-json-file.js';
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
  writePrivateJson(storePath, store);
}

function readStore(storePath: string): StoreFile {
  const store = readPrivateJson(storePath, {
    what: 'a warren trust record',
    fix: 'remove it and trust your projects again with `warren trust`',
    accepts: (value): value is StoreFile => {
      const projects = (value as Partial<StoreFile> | null)?.projects;
      return typeof projects === 'object' && projects !== null && !Array.isArray(projects);
    },
  });
  return { version: 1, projects: store?.projects ?? {} };
}
