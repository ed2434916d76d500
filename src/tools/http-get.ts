// One HTTP(S) GET for WebFetch: connects only to addresses resolved beforehand, decompresses
// what the server compressed, and reads at most a given number of (decompressed) bytes, so
// neither a huge page nor a compression bomb can fill memory.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pinnedLookup, type ResolvedAddress } from './web-destination.js';

// Node's HTTP client and zlib are taken when a page is fetched, as CommonJS objects rather than
// by `import 'node:http'`: an ES import builds the module's whole namespace, and reading its
// lazy `WebSocket` export loads undici's WebSocket, 100-200 ms of CPU at the start of every
// program that imports warren, WebFetch or not.

export interface HttpGetRequest {
  url: URL;
  /** The only addresses the connection may go to. */
  addresses: readonly ResolvedAddress[];
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface HttpGetResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** Reads the body, decompressed, up to `maxBytes`; the rest is left unread. */
  readBody(maxBytes: number): Promise<{ body: Buffer; truncated: boolean }>;
  /** Drops the body unread and closes the connection. */
  discard(): void;
}

/** Sends the request and resolves once the status line and headers are in. */
export function httpGet(request: HttpGetRequest): Promise<HttpGetResponse> {
  const { url } = request;
  const client =
    url.protocol === 'https:'
      ? process.getBuiltinModule('node:https')
      : process.getBuiltinModule('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, {
      method: 'GET',
      headers: request.headers,
      lookup: pinnedLookup(request.addresses),
      signal: request.signal,
      // A fresh connection each time: a pooled one could have been opened for another address.
      agent: false,
    });
    outgoing.once('error', reject);
    outgoing.once('response', (incoming) => {
      resolve({
        status: incoming.statusCode ?? 0,
        statusText: incoming.statusMessage ?? '',
        headers: incoming.headers,
        readBody: (maxBytes) => readCapped(decoded(incoming), maxBytes, () => incoming.destroy()),
        discard: () => incoming.destroy(),
      });
    });
    outgoing.end();
  });
}

/** The body as the server meant it: gzip, deflate and brotli undone; anything else as sent. */
function decoded(incoming: IncomingMessage): Readable {
  const encoding = String(incoming.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const zlib = process.getBuiltinModule('node:zlib');
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return incoming;
  incoming.on('error', (error) => decoder.destroy(error));
  return incoming.pipe(decoder);
}

async function readCapped(
  body: Readable,
  maxBytes: number,
  close: () => void,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    close();
    body.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}
