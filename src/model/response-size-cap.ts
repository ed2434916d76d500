// The most bytes one model response may carry. A runaway model or a hostile server could
// otherwise stream hundreds of megabytes into memory (and a single huge line into one string);
// the body is cut at the cap, the connection closed, and the call fails with ReplyTooLargeError.
import { hasErrorMark } from '../core/error-mark.js';

/** Far above any real reply: 64 MiB of SSE is some 300,000 tokens of streamed text. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export class ReplyTooLargeError extends Error {
  readonly isReplyTooLarge = true;
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`the reply was larger than ${formatBytes(limitBytes)} and was cut off there`);
    this.name = 'ReplyTooLargeError';
    this.limitBytes = limitBytes;
  }

  static isInstance(error: unknown): error is ReplyTooLargeError {
    return hasErrorMark(error, 'isReplyTooLarge');
  }
}

/** A fetch whose response bodies fail with ReplyTooLargeError past `maxBytes`. */
export function cappedFetch(
  fetchImpl: typeof fetch = fetch,
  maxBytes = MAX_RESPONSE_BYTES,
): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.body || withinDeclaredLength(response, maxBytes)) return response;
    return new Response(capped(response.body, maxBytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * An uncompressed body whose Content-Length is within the cap cannot pass it: fetch reads no
 * more than the declared length. A whole JSON reply then needs no counting layer. (A compressed
 * one can: fetch decompresses it, so it is counted like a stream.)
 */
function withinDeclaredLength(response: Response, maxBytes: number): boolean {
  const length = response.headers.get('content-length');
  const encoding = response.headers.get('content-encoding');
  if (length === null || !/^\d+$/.test(length)) return false;
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return false;
  return Number(length) <= maxBytes;
}

/**
 * The body, counted as it is read, erroring (and cancelling the source, which closes the
 * connection) past `maxBytes`. A pull source rather than `pipeThrough`: one read per chunk,
 * without a pipe's writable side, on every streamed reply.
 */
function capped(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        received += value.byteLength;
        if (received <= maxBytes) {
          controller.enqueue(value);
          return;
        }
        const error = new ReplyTooLargeError(maxBytes);
        controller.error(error);
        await reader.cancel(error).catch(() => {});
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Number(mib.toFixed(1))} MiB` : `${bytes} bytes`;
}
