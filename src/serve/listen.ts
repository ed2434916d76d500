// Where a protocol server listens: the address it got, the Host names it answers to on loopback
// (a page that rebinds its own name to 127.0.0.1 reaches nothing), and a port that cannot be had
// as one clear line. Closing drops open connections too: no client keeps the process alive.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../core/config-error.js';

export interface RunningHttpServer {
  /** The address it listens on, `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

export interface Listening {
  url: string;
  /** The Host headers to accept; undefined off loopback (the token is the wall there). */
  allowedHosts: string[] | undefined;
}

export async function listenOn(http: Server, host: string, port: number): Promise<Listening> {
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => resolve());
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'failed';
    throw new ConfigError(
      `--host ${host} --port ${port}`,
      `cannot be listened on (${code})`,
      'choose another port (--port 0 picks a free one) or address',
    );
  }
  const bound = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  return {
    url: `http://${shown}:${bound}`,
    allowedHosts: loopback
      ? [`127.0.0.1:${bound}`, `localhost:${bound}`, `[::1]:${bound}`]
      : undefined,
  };
}

export function closeServer(http: Server): Promise<void> {
  http.closeAllConnections();
  return new Promise((resolve) => http.close(() => resolve()));
}
