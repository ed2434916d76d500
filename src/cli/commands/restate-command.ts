// `warren restate serve` (a worker, until Ctrl-C or SIGTERM), `warren restate register` (a
// worker's URL, announced to restate-server's admin API) and `warren restate keygen` (a remote
// key for parents and workers). The worker itself is remote/.
import { ConfigError } from '../../core/config-error.js';
import { killLiveGroups } from '../../core/process-group.js';
import { generateRemoteKey, takeRemoteKeys } from '../../remote/remote-key.js';
import { registerWorker } from '../../remote/restate-admin.js';
import type { RemoteAuth } from '../../remote/signed-envelope.js';
import type { CliIo } from '../print/print-mode.js';
import type { RestateArgs } from '../restate-args.js';

type ServeArgs = Extract<RestateArgs, { action: 'serve' }>;

export async function runRestateCommand(args: RestateArgs, io: CliIo): Promise<number> {
  if (args.action === 'keygen') {
    io.stdout(`${generateRemoteKey()}\n`);
    return 0;
  }
  if (args.action === 'register') {
    const registered = await registerWorker({ adminUrl: args.adminUrl, workerUrl: args.workerUrl });
    io.stdout(
      `registered ${args.workerUrl} with ${args.adminUrl}: ${registered.services.join(', ')}\n`,
    );
    return 0;
  }
  const auth = workerAuth(args);
  if (auth === 'insecure-no-auth') {
    io.stderr(
      "warren: WARNING: --insecure-no-auth: this worker runs any child spec that reaches restate-server's ingress, signed or not; anyone who can reach the ingress can spend its model keys and run tools on this machine within its --max-permission-mode\n",
    );
  }
  // The SDK logs every invocation's start and end at INFO: a worker says only what goes wrong,
  // unless RESTATE_LOGGING asks for more. The SDK reads it when it loads, so it loads after.
  process.env.RESTATE_LOGGING ||= 'WARN';
  const [{ serveWorker }, { RestateExecutor }, { runRemoteChild }] = await Promise.all([
    import('../../remote/restate-worker.js'),
    import('../../remote/restate-executor.js'),
    import('../../run/worker-child.js'),
  ]);
  const worker = await serveWorker({
    runChild: runRemoteChild,
    port: args.port,
    host: args.host,
    auth,
    // Keys and endpoints are the worker's own: its flags and environment, never a spec.
    env: process.env,
    limits: {
      providers: args.providers,
      baseUrl: args.baseUrl ?? (process.env.WARREN_BASE_URL?.trim() || undefined),
      maxMode: args.maxPermissionMode,
    },
    log: (line) => io.stderr(`${line}\n`),
    identityKeys: args.identityKeys,
    ...(args.restateUrl && args.restateAdminUrl
      ? {
          remote: {
            executor: new RestateExecutor({
              ingressUrl: args.restateUrl,
              adminUrl: args.restateAdminUrl,
              auth,
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

/** The worker's key(s); without one it starts only when told to serve anyone. */
function workerAuth(args: ServeArgs): RemoteAuth {
  const keys = takeRemoteKeys(args.remoteKeyFile);
  if (keys && args.insecureNoAuth) {
    throw new ConfigError(
      '--insecure-no-auth',
      'given with a remote key',
      'leave it out to accept only signed requests, or unset WARREN_REMOTE_KEY / --remote-key-file',
    );
  }
  if (keys) return { keys };
  if (args.insecureNoAuth) return 'insecure-no-auth';
  throw new ConfigError(
    'warren restate serve',
    'needs the remote key its parents sign requests with',
    'make one with `warren restate keygen` and give it to the worker and its parents in WARREN_REMOTE_KEY (or --remote-key-file); --insecure-no-auth serves anyone who reaches the ingress',
  );
}
