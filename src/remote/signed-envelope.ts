// What parents and workers send each other through Restate's ingress, sealed: the payload as JSON
// text with an HMAC-SHA256 over its use (kind), the workflow or inbox it is for (target), when it
// was made and a nonce, keyed by the shared remote key. Anyone can reach the ingress; only a
// holder of the key can make a request a worker obeys.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What a sealed request is for: a signature made for one use is refused for every other. */
export const SEALED_KINDS = [
  'spec',
  'message',
  'read-progress',
  'read-status',
  'ending',
  'read-inbox',
  'acknowledge',
  'record-read',
  'record-write',
] as const;
export type SealedKind = (typeof SEALED_KINDS)[number];

/**
 * The keys a process holds: the first signs, every one verifies (so a key can be rotated in
 * without stopping anyone). `insecure-no-auth` is the explicit opt-out: nothing signed, nothing
 * checked.
 */
export type RemoteAuth = { readonly keys: readonly string[] } | 'insecure-no-auth';

const VERSION = 'warren-sealed-v1';

/** A spec, with its definitions, is at most this long as JSON. */
const MAX_BODY_CHARS = 16_000_000;

const envelopeSchema = z.object({
  v: z.literal(VERSION),
  kind: z.string().max(40),
  at: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  nonce: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  body: z.string().max(MAX_BODY_CHARS),
  mac: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

export type Sealed = z.output<typeof envelopeSchema>;

/**
 * How long a signed spec, message or acknowledgement stays valid: a day, Restate's default
 * retention of a finished workflow, during which a replay under the same id only attaches.
 */
export const SIGNED_MAX_AGE_MS = 24 * 60 * 60_000;
/** Reads are signed afresh for each call: a captured one is soon worthless. */
export const READ_MAX_AGE_MS = 10 * 60_000;

/** How far ahead of this machine's clock a signature may be dated (clocks drift). */
const FUTURE_SKEW_MS = 5 * 60_000;

export function seal(
  auth: RemoteAuth,
  kind: SealedKind,
  target: string,
  body: string,
  now = Date.now(),
): Sealed {
  const nonce = randomBytes(16).toString('base64url');
  const unsigned = { v: VERSION, kind, at: now, nonce, body } as const;
  if (auth === 'insecure-no-auth') return unsigned;
  const key = auth.keys[0];
  if (key === undefined) throw new Error('no remote key to sign with');
  return { ...unsigned, mac: macOf(key, kind, target, unsigned) };
}

export type Opened =
  | { ok: true; body: string; at: number; nonce: string }
  | { ok: false; reason: string };

/**
 * The body of a sealed request, when it is for `kind` on `target`, signed with one of the keys
 * and not older than `maxAgeMs`; else why not, in words that carry no secret and no part of the
 * request (it is the sender's, and may be hostile).
 */
export function unseal(
  input: unknown,
  expect: {
    auth: RemoteAuth;
    kind: SealedKind;
    target: string;
    /** Infinity: a replay of it is harmless (the receiver makes it idempotent). */
    maxAgeMs: number;
    now?: number;
  },
): Opened {
  const parsed = envelopeSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      reason:
        'it is not a sealed warren request (its sender is not a warren parent or worker of this version)',
    };
  }
  const envelope = parsed.data;
  if (envelope.kind !== expect.kind) {
    // Named only when it is one of ours: the field is the sender's, and a log is no place for it.
    const named = (SEALED_KINDS as readonly string[]).includes(envelope.kind);
    return {
      ok: false,
      reason: `it was sealed for another use${named ? ` (${envelope.kind})` : ''}`,
    };
  }
  if (expect.auth === 'insecure-no-auth') return opened(envelope);
  if (envelope.mac === undefined) {
    return {
      ok: false,
      reason:
        'it is not signed (give the parent the same remote key as the worker: WARREN_REMOTE_KEY or --remote-key-file)',
    };
  }
  const mac = Buffer.from(envelope.mac, 'hex');
  const signed = expect.auth.keys.some((key) =>
    timingSafeEqual(Buffer.from(macOf(key, envelope.kind, expect.target, envelope), 'hex'), mac),
  );
  if (!signed) {
    return {
      ok: false,
      reason:
        'its signature does not match: it was signed with another key, or altered, or sent for another agent or inbox',
    };
  }
  const now = expect.now ?? Date.now();
  if (envelope.at > now + FUTURE_SKEW_MS) {
    return {
      ok: false,
      reason: 'it is dated in the future (check the clocks of parent and worker)',
    };
  }
  if (now - envelope.at > expect.maxAgeMs) {
    return {
      ok: false,
      reason: `it was signed ${Math.round((now - envelope.at) / 60_000)} minutes ago, longer than the ${Math.round(expect.maxAgeMs / 60_000)} a request stays valid (a replay)`,
    };
  }
  return opened(envelope);
}

function opened(envelope: Sealed): Opened {
  return { ok: true, body: envelope.body, at: envelope.at, nonce: envelope.nonce };
}

/** JSON of an array: an encoding no two different requests share, whatever their fields hold. */
function macOf(
  key: string,
  kind: string,
  target: string,
  fields: Pick<Sealed, 'v' | 'at' | 'nonce' | 'body'>,
): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([fields.v, kind, target, fields.at, fields.nonce, fields.body]))
    .digest('hex');
}
