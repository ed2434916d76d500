// Children on Restate workers for a run (`--restate-url`; all of them with `--executor restate`):
// the executor, loaded only when asked for, with the remote key it signs every call with, and
// its ingress checked first, so a wrong URL, no key or no registered worker is one line at start.
import type { RemotePort } from '../agents/remote-port.js';
import { ConfigError } from '../core/config-error.js';
import { takeRemoteKeys } from '../remote/remote-key.js';
import type { RunArgs } from './parsed-args.js';

export async function remoteFor(
  args: RunArgs,
  definitionModel: string | undefined,
): Promise<Omit<RemotePort, 'inboxKey'> | undefined> {
  const { restateUrl, restateAdminUrl } = args;
  if (restateUrl === undefined || restateAdminUrl === undefined) return undefined;
  const keys = takeRemoteKeys(args.remoteKeyFile);
  if (!keys) {
    throw new ConfigError(
      '--restate-url',
      'remote children need the remote key their workers accept',
      'set WARREN_REMOTE_KEY (or --remote-key-file) to the key the workers have; `warren restate keygen` makes one',
    );
  }
  const [{ RestateExecutor }, { checkIngress }, { SUBAGENT_SERVICE }] = await Promise.all([
    import('../remote/restate-executor.js'),
    import('../remote/restate-admin.js'),
    import('../remote/restate-services.js'),
  ]);
  await checkIngress({ ingressUrl: restateUrl, where: '--restate-url', service: SUBAGENT_SERVICE });
  return {
    executor: new RestateExecutor({
      ingressUrl: restateUrl,
      adminUrl: restateAdminUrl,
      auth: { keys },
    }),
    all: args.executor === 'restate',
    modelSpec: args.model ?? definitionModel,
  };
}
