// A loopback server that accepts connections and never answers: a collector or API behind a
// firewall that drops packets, which a closed port (an instant refusal) does not imitate.
import { createServer, type Socket } from 'node:net';

export interface SilentServer {
  url: string;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
