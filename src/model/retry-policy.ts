// Which model-call failures are worth another try, and how long to wait before it.

import { APICallError } from '@ai-sdk/provider';
import { messageOf } from '../core/error-message.js';
import type { RetryOptions } from '../core/inherited-options.js';
import { RUN_KNOBS } from '../core/run-knobs.js';
import { RequestTimeoutError } from './request-timeout.js';
import { ReplyTooLargeError } from './response-size-cap.js';

/** The retries of a model call no one set: the run's default (core/run-knobs.ts). */
export const DEFAULT_RETRY: Required<RetryOptions> = RUN_KNOBS.retry;

/** A server asking for a longer wait than this is not worth waiting for within one run. */
const MAX_SERVER_WAIT_MS = 120_000;
const RETRYABLE_STATUS = new Set([408, 409, 429]);
const QUOTA_SPENT = /insufficient_quota|exceeded your current quota|usage limit/i;
/** Errors of a connection that worked and then broke; a refused connection is not one. */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET']);
const REFUSED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** A stream that ended before the provider said it was finished. */
export class StreamCutError extends Error {
  readonly isStreamCut = true;
  constructor(detail = 'the response stream ended before it was complete') {
    super(detail);
    this.name = 'StreamCutError';
  }
}

export function isRetryable(error: unknown): boolean {
  if (error instanceof StreamCutError || RequestTimeoutError.isInstance(error)) return true;
  // A reply past the size cap would most likely be as large again.
  if ([...causes(error)].some(ReplyTooLargeError.isInstance)) return false;
  // The SDK marks every network failure retryable; a server that is not there stays not there.
  if (hasCode(error, REFUSED_CODES)) return false;
  // undici refuses the Fetch standard's blocked ports (6000, ...) before connecting: no retry helps.
  if ([...causes(error)].some((cause) => cause instanceof Error && cause.message === 'bad port')) {
    return false;
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status !== undefined && status >= 400) {
      // A 429 for a spent quota or usage limit stays one for hours: no retry (a workflow's
      // circuit breaker pauses on it instead).
      if (status === 429 && QUOTA_SPENT.test(`${error.message} ${error.responseBody ?? ''}`))
        return false;
      return RETRYABLE_STATUS.has(status) || status >= 500;
    }
    // No status, or a 200 whose body broke off: the SDK knows whether it is worth another try.
    return error.isRetryable || hasTransientCause(error);
  }
  if (/overloaded/i.test(messageOf(error))) return true;
  return hasTransientCause(error);
}

/** The server's own wait, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = error.responseHeaders ?? {};
  const header = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const ms = Number(header('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = header('retry-after');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff, jittered between half and all of the ceiling, unless the server named its own wait. */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  options: Required<RetryOptions>,
  random = Math.random,
): number {
  const fromServer = retryAfterMs(error);
  if (fromServer !== undefined) return Math.min(fromServer, MAX_SERVER_WAIT_MS);
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function hasTransientCause(error: unknown): boolean {
  if (hasCode(error, TRANSIENT_CODES)) return true;
  for (const cause of causes(error)) {
    if (/terminated|socket hang up|other side closed/i.test(messageOf(cause))) return true;
  }
  return false;
}

function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
  }
  return false;
}

/** The error and the chain of its causes, a few levels deep. */
function* causes(error: unknown): Generator<unknown> {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    yield cause;
    cause = (cause as { cause?: unknown }).cause;
  }
}
