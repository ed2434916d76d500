// Who may call a protocol server: the bearer token (or API key header) it was given, compared in
// constant time. A server without a token exists only when its user asked for one explicitly.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** `token: undefined` is the explicit `--insecure-no-auth`: every caller gets in. */
export interface ServeAuth {
  token: string | undefined;
}

/** The header an API-key caller (Gemini CLI's `auth: { type: apiKey }`) sends the token in. */
export const API_KEY_HEADER = 'x-api-key';

/** True when the request carries the token as `Authorization: Bearer <t>` or `X-API-Key: <t>`. */
export function isAuthorized(request: IncomingMessage, auth: ServeAuth): boolean {
  if (auth.token === undefined) return true;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const apiKey = request.headers[API_KEY_HEADER];
  const given = bearer ?? (typeof apiKey === 'string' ? apiKey : undefined);
  return given !== undefined && sameSecret(given, auth.token);
}

/** Hashing first makes the comparison constant-time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
