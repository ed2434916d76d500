// The most bytes one model response may carry. A runaway model or a hostile server could
// otherwise stream hundreds of megabytes into memory (and a single huge line into one string);
// the body is cut at the cap, the connection closed, and the call fails with ReplyTooLargeError.
// Counting the bytes, it also tells the request's watchdog that the server is alive.
import { hasErrorMark } from '../core/error-mark.js';
import { bytesArrived } from './request-timeout.js';

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
    if (!response.body) return response;
    let received = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          received += chunk.byteLength;
          bytesArrived(init?.signal);
          // Erroring the pipe cancels the body too, which closes the connection.
          if (received > maxBytes) controller.error(new ReplyTooLargeError(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Number(mib.toFixed(1))} MiB` : `${bytes} bytes`;
}
