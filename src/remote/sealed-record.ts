// The entries of a workflow run's record in Restate, encrypted by the process that writes them
// (AES-256-GCM, a key derived from the remote key, the run id and entry name as associated data):
// the worker that keeps them, restate-server's state and its admin API see only ciphertext.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { RemoteAuth } from './signed-envelope.js';

const PREFIX = 'warren-record-v1:';
const PLAIN = 'warren-record-plain:';

/** The entry encrypted with the first key; marked plain when this process has none (its opt-out). */
export function sealEntry(auth: RemoteAuth, runId: string, name: string, text: string): string {
  if (auth === 'insecure-no-auth') return `${PLAIN}${text}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', recordKey(auth.keys[0]!), iv);
  cipher.setAAD(Buffer.from(`${runId}\n${name}`));
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${PREFIX}${[iv, cipher.getAuthTag(), data].map((part) => part.toString('base64')).join('.')}`;
}

/**
 * The entry's text, decrypted with whichever key opens it.
 * @throws Error when no key of this process opens it (or it was moved to another run or name).
 */
export function openEntry(auth: RemoteAuth, runId: string, name: string, sealed: string): string {
  if (sealed.startsWith(PLAIN) && auth === 'insecure-no-auth') return sealed.slice(PLAIN.length);
  const parts = sealed.startsWith(PREFIX) ? sealed.slice(PREFIX.length).split('.') : [];
  const keys = auth === 'insecure-no-auth' ? [] : auth.keys;
  if (parts.length === 3) {
    const [iv, tag, data] = parts.map((part) => Buffer.from(part, 'base64')) as [
      Buffer,
      Buffer,
      Buffer,
    ];
    for (const key of keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', recordKey(key), iv);
        decipher.setAAD(Buffer.from(`${runId}\n${name}`));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        // Another key of a rotation may open it.
      }
    }
  }
  throw new Error(
    `the record of workflow run ${runId} is encrypted with a remote key this process does not have (give it the key its workers use: WARREN_REMOTE_KEY or --remote-key-file)`,
  );
}

function recordKey(key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, '', 'warren workflow record v1', 32));
}
