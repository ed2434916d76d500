// A worker's answer to a request it will not serve: one line in its log (what was refused, for
// which agent or inbox, and why; never a key, a signature or the request's content) and a
// terminal error for the caller, so Restate does not retry it and nothing runs.
import * as restate from '@restatedev/restate-sdk';
import { type Opened, type RemoteAuth, type SealedKind, unseal } from './signed-envelope.js';

/** Where a worker writes its refusals: its stderr unless a test or library says otherwise. */
export type RefusalLog = (line: string) => void;

export const stderrLog: RefusalLog = (line) => {
  process.stderr.write(`${line}\n`);
};

/** How every refusal's error starts, so the worker's log can leave out the SDK's trace of it. */
export const REFUSED = 'warren worker refused';

/** Refusals are 401 when the sender is not known, 403 when a known sender asks for too much. */
export function refuse(
  log: RefusalLog,
  what: string,
  key: string,
  reason: string,
  status: 401 | 403 | 400 = 401,
): never {
  log(`warren: refused ${what} for ${shownKey(key)}: ${reason}`);
  throw new restate.TerminalError(`${REFUSED} ${what}: ${reason}`, {
    errorCode: status,
  });
}

/** The body of a sealed request for this handler, or a refusal. */
export function admitted(
  input: unknown,
  expect: { auth: RemoteAuth; kind: SealedKind; key: string; maxAgeMs: number; now?: number },
  log: RefusalLog,
  what: string,
): Extract<Opened, { ok: true }> {
  const opened = unseal(input, { ...expect, target: expect.key });
  if (!opened.ok) refuse(log, what, expect.key, opened.reason);
  return opened;
}

/** A workflow or object key as a log may show it: it comes from the caller, so maybe hostile. */
function shownKey(key: string): string {
  return /^[\w.-]{1,100}$/.test(key) ? key : `a key of ${key.length} characters`;
}
