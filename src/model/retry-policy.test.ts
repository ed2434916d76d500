import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  isRetryable,
  retryAfterMs,
  retryDelayMs,
  StreamCutError,
} from './retry-policy.js';

function apiError(statusCode: number, headers: Record<string, string> = {}) {
  return new APICallError({
    message: `status ${statusCode}`,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
  });
}

describe('retry policy', () => {
  it.each([408, 409, 429, 500, 502, 503, 529])('retries HTTP %i', (status) => {
    expect(isRetryable(apiError(status))).toBe(true);
  });

  it.each([400, 401, 403, 404, 422])('does not retry HTTP %i', (status) => {
    expect(isRetryable(apiError(status))).toBe(false);
  });

  it('does not retry a 429 that says the quota or usage limit is spent', () => {
    const quota = new APICallError({
      message: 'You exceeded your current quota, please check your plan and billing details.',
      url: 'http://127.0.0.1/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 429,
      responseBody: '{"error":{"type":"insufficient_quota"}}',
    });
    expect(isRetryable(quota)).toBe(false);
  });

  it('retries a cut stream, an overloaded message and a reset connection', () => {
    expect(isRetryable(new StreamCutError())).toBe(true);
    expect(isRetryable(new Error('Overloaded'))).toBe(true);
    expect(isRetryable(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe(true);
  });

  it('does not retry a refused connection: the server is not there', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
    expect(isRetryable(refused)).toBe(false);
  });

  it('reads retry-after as seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(apiError(429, { 'retry-after': '3' }), now)).toBe(3000);
    expect(
      retryAfterMs(apiError(429, { 'Retry-After': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now),
    ).toBe(5000);
    expect(retryAfterMs(apiError(429, { 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(
      250,
    );
    expect(retryAfterMs(apiError(429), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, within the configured ceiling', () => {
    const delays = [0, 1, 2, 3, 10].map((attempt) =>
      retryDelayMs(new Error('x'), attempt, DEFAULT_RETRY, () => 1),
    );
    expect(delays).toEqual([500, 1000, 2000, 4000, 30_000]);
    expect(retryDelayMs(new Error('x'), 2, DEFAULT_RETRY, () => 0)).toBe(1000);
  });

  it('prefers the server-given wait over its own backoff', () => {
    expect(retryDelayMs(apiError(429, { 'retry-after': '2' }), 0, DEFAULT_RETRY)).toBe(2000);
  });
});

describe('retry policy with the SDK errors of a broken response', () => {
  it('retries a 200 response whose body broke off', () => {
    const cut = new APICallError({
      message: 'Failed to process successful response',
      url: 'http://127.0.0.1/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 200,
      isRetryable: true,
    });
    expect(isRetryable(cut)).toBe(true);
  });

  it('does not retry a refused connection even when the SDK calls it retryable', () => {
    const refused = new APICallError({
      message: 'Cannot connect to API',
      url: 'http://127.0.0.1:1/v1/chat/completions',
      requestBodyValues: {},
      isRetryable: true,
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(isRetryable(refused)).toBe(false);
  });
});
