import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { cappedFetch, ReplyTooLargeError } from './response-size-cap.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A loopback server answering every request with `body` and `headers`. */
async function serving(body: Buffer | Buffer[], headers: Record<string, string>): Promise<string> {
  server = createServer((_request, response) => {
    response.writeHead(200, headers);
    for (const part of Array.isArray(body) ? body : [body]) response.write(part);
    response.end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function readAll(url: string, maxBytes: number): Promise<string> {
  const response = await cappedFetch(fetch, maxBytes)(url);
  return response.text();
}

describe('cappedFetch', () => {
  it('passes a reply within the cap through whole, with or without a Content-Length', async () => {
    const json = Buffer.from(JSON.stringify({ text: 'x'.repeat(500) }));
    const withLength = await serving(json, { 'content-length': String(json.length) });
    expect(await readAll(withLength, 1000)).toBe(json.toString());
    await new Promise((resolve) => server?.close(resolve));

    const chunked = await serving([json.subarray(0, 100), json.subarray(100)], {});
    expect(await readAll(chunked, 1000)).toBe(json.toString());
  });

  it('cuts a streamed reply at the cap', async () => {
    const url = await serving(
      Array.from({ length: 50 }, () => Buffer.alloc(1000, 'a')),
      { 'content-type': 'text/event-stream' },
    );

    await expect(readAll(url, 20_000)).rejects.toSatisfy(ReplyTooLargeError.isInstance);
  });

  it('cuts a compressed reply at the cap though its Content-Length is small (a compression bomb)', async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000, 'a'));
    const url = await serving(bomb, {
      'content-encoding': 'gzip',
      'content-length': String(bomb.length),
    });

    expect(bomb.length).toBeLessThan(20_000);
    await expect(readAll(url, 20_000)).rejects.toSatisfy(ReplyTooLargeError.isInstance);
  });

  it('cuts a reply whose Content-Length is over the cap', async () => {
    const big = Buffer.alloc(50_000, 'a');
    const url = await serving(big, { 'content-length': String(big.length) });

    await expect(readAll(url, 20_000)).rejects.toSatisfy(ReplyTooLargeError.isInstance);
  });
});
