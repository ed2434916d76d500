// A loopback HTTP server for WebFetch tests: each test says how to answer, and sees every
// request that arrived. Never anything but 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

export type WebHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestWebServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Paths requested, in order, with the Host header each came with. */
  requests: { path: string; host: string }[];
}

/** Starts a server on 127.0.0.1 for the calling test; it stops after the test. */
export function useWebServers(): (handler: WebHandler, host?: string) => Promise<TestWebServer> {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((close) => close()));
  });
  return async (handler, host = '127.0.0.1') => {
    const requests: TestWebServer['requests'] = [];
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      requests.push({ path: req.url ?? '', host: req.headers.host ?? '' });
      handler(req, res);
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    open.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    );
    const { port } = server.address() as AddressInfo;
    return { url: `http://${host}:${port}`, port, requests };
  };
}
