// Who gets past a protocol server's door: exactly the callers holding its token, in either
// header, whatever else they send; and everyone only when the user asked for no token.
import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAuthorized } from './bearer-auth.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const token = fc.string({ minLength: 1, maxLength: 64 }).filter((text) => /^\S+$/.test(text));

describe('isAuthorized', () => {
  it('lets in the token as a bearer token or an API key', () => {
    fc.assert(
      fc.property(token, (secret) => {
        const auth = { token: secret };
        expect(isAuthorized(request({ authorization: `Bearer ${secret}` }), auth)).toBe(true);
        expect(isAuthorized(request({ 'x-api-key': secret }), auth)).toBe(true);
      }),
    );
  });

  it('refuses every other value, a prefix or extension of the token included', () => {
    fc.assert(
      fc.property(token, fc.string({ maxLength: 80 }), (secret, given) => {
        fc.pre(given.trim() !== secret);
        const auth = { token: secret };
        for (const guess of [given, secret.slice(0, -1), `${secret}x`]) {
          expect(isAuthorized(request({ authorization: `Bearer ${guess}` }), auth)).toBe(false);
          expect(isAuthorized(request({ 'x-api-key': guess }), auth)).toBe(false);
        }
        expect(isAuthorized(request({ authorization: secret }), auth)).toBe(false);
        expect(isAuthorized(request({}), auth)).toBe(false);
      }),
    );
  });

  it('lets everyone in only without a token (--insecure-no-auth)', () => {
    expect(isAuthorized(request({}), { token: undefined })).toBe(true);
  });
});
