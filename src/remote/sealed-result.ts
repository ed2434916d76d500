// A child's result as its workflow returns it: encrypted (AES-256-GCM, a key derived from the
// remote key, the agent id as associated data), since restate-server gives a finished
// workflow's output to anyone who attaches to it through the ingress, with no warren code in
// between. Only a holder of the remote key reads it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RunResult } from '../core/events.js';
import type { RemoteAuth } from './signed-envelope.js';

const VERSION = 'warren-result-v1';

const sealedSchema = z.object({
  v: z.literal(VERSION),
  iv: z.string(),
  data: z.string(),
  tag: z.string(),
});

export type SealedResult = z.output<typeof sealedSchema>;

/** The result encrypted with the first key; as it is when the worker has none (its opt-out). */
export function sealResult(
  auth: RemoteAuth,
  agentId: string,
  result: RunResult,
): SealedResult | RunResult {
  if (auth === 'insecure-no-auth') return result;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', resultKey(auth.keys[0]!), iv);
  cipher.setAAD(Buffer.from(agentId));
  const data = Buffer.concat([cipher.update(JSON.stringify(result), 'utf8'), cipher.final()]);
  return {
    v: VERSION,
    iv: iv.toString('base64'),
    data: data.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

/**
 * The result a workflow returned, decrypted with whichever key opens it. A plain result (from a
 * worker started with --insecure-no-auth) is taken as it is: only a worker writes a workflow's
 * output, so nobody else could have put it there.
 * @throws Error when no key of this process opens it.
 */
export function openResult(auth: RemoteAuth, agentId: string, output: unknown): RunResult {
  const sealed = sealedSchema.safeParse(output);
  if (!sealed.success) return output as RunResult;
  const keys = auth === 'insecure-no-auth' ? [] : auth.keys;
  for (const key of keys) {
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        resultKey(key),
        Buffer.from(sealed.data.iv, 'base64'),
      );
      decipher.setAAD(Buffer.from(agentId));
      decipher.setAuthTag(Buffer.from(sealed.data.tag, 'base64'));
      const text = Buffer.concat([
        decipher.update(Buffer.from(sealed.data.data, 'base64')),
        decipher.final(),
      ]).toString('utf8');
      return JSON.parse(text) as RunResult;
    } catch {
      // Another key of a rotation may open it.
    }
  }
  throw new Error(
    `the result of ${agentId} is encrypted with a remote key this process does not have (give it the key its workers use: WARREN_REMOTE_KEY or --remote-key-file)`,
  );
}

function resultKey(key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, '', 'warren remote result v1', 32));
}
