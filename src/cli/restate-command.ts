// `warren restate serve` (a worker, until Ctrl-C or SIGTERM) and `warren restate register` (a
// worker's URL, announced to restate-server's admin API). The worker itself is remote/.
import { killLiveGroups } from '../core/process-group.js';
import { registerWorker } from '../remote/restate-admin.js';
import type { CliIo } from './print-mode.js';
import type { RestateArgs } from './restate-args.js';

export async function runRestateCommand(args: RestateArgs, io: CliIo): Promise<number> {
  if (args.action === 'register') {
    const registered = await registerWorker({ adminUrl: args.adminUrl, workerUrl: args.workerUrl });
    io.stdout(
      `registered ${args.workerUrl} with ${args.adminUrl}: ${registered.services.join(', ')}\n`,
    );
    return 0;
  }
  // The SDK logs every invocation's start and end at INFO: a worker says only what goes wrong,
  // unless RESTATE_LOGGING asks for more. The SDK reads it when it loads, so it loads after.
  process.env.RESTATE_LOGGING ||= 'WARN';
  const [{ serveWorker }, { RestateExecutor }] = await Promise.all([
    import('../remote/restate-worker.js'),
    import('../remote/restate-executor.js'),
  ]);
  const worker = await serveWorker({
    port: args.port,
    host: args.host,
    // Keys and endpoints are the worker's own: its environment, never the workflow input.
    env: process.env,
    ...(args.restateUrl && args.restateAdminUrl
      ? {
          remote: {
            executor: new RestateExecutor({
              ingressUrl: args.restateUrl,
              adminUrl: args.restateAdminUrl,
            }),
          },
        }
      : {}),
  });
  io.stdout(`warren restate worker listening on ${worker.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
  // Invocations in flight are dropped: restate-server retries them on another worker.
  await worker.close();
  killLiveGroups();
  io.stderr('warren: worker stopped\n');
  return 0;
}
