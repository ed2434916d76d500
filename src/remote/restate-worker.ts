// `warren restate serve`: warren's Restate services (the `subagent` workflow, the `parentInbox`
// and `workflowRecord` objects) over HTTP/2, for restate-server to call. Any number of workers
// may serve them: the server invokes one deployment URL, and a load balancer (or a restarted
// worker) answers it.
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as restate from '@restatedev/restate-sdk';
import { parentInbox } from './parent-inbox.js';
import { subagentWorkflow, type WorkerSettings } from './subagent-workflow.js';
import { workerLogger } from './worker-log.js';
import { workflowRecord } from './workflow-record-object.js';

export interface WorkerOptions extends WorkerSettings {
  port: number;
  /** Where to listen. Default 127.0.0.1: a worker runs tools, so it is not open to everyone. */
  host?: string;
  /**
   * Restate's request identity keys (`publickeyv1_…`): when set, only requests signed by the
   * restate-server holding the private key are served.
   */
  identityKeys?: readonly string[];
}

export interface RunningWorker {
  /** `http://<host>:<port>`: what `warren restate register --worker-url` takes. */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveWorker(options: WorkerOptions): Promise<RunningWorker> {
  const host = options.host ?? '127.0.0.1';
  const handler = restate.createEndpointHandler({
    services: [subagentWorkflow(options), parentInbox(options), workflowRecord(options)],
    logger: workerLogger(process.env),
    ...(options.identityKeys?.length ? { identityKeys: [...options.identityKeys] } : {}),
  });
  const server = http2.createServer(handler);
  const open = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    open.add(session);
    session.on('close', () => open.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Open streams (invocations in flight) would hold close() forever: Restate retries them.
        for (const session of open) session.destroy();
      }),
  };
}
