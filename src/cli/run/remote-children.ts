// Children on Restate workers for a run (`--restate-url`; all of them with `--executor restate`):
// the executor, loaded only when asked for, with the remote key it signs every call with, and
// its ingress checked first, so a wrong URL, no key or no registered worker is one line at start.
import type { RemotePort } from '../../agents/remote-port.js';
import { ConfigError } from '../../core/config-error.js';
import { takeRemoteKeys } from '../../remote/remote-key.js';
import type { RunArgs } from '../parsed-args.js';
import type { RunModels } from './run-models.js';

export async function remoteFor(
  args: RunArgs,
  definitionModel: string | undefined,
  models: Pick<RunModels, 'remoteExecutor' | 'replaysRemote' | 'replayedModel'> = {},
): Promise<Omit<RemotePort, 'inboxKey'> | undefined> {
  const { restateUrl, restateAdminUrl } = args;
  const modelSpec = args.model ?? definitionModel ?? models.replayedModel;
  // A replay answers remote children from its cassette: no restate-server is asked.
  if (args.replay) {
    if (!models.replaysRemote || !models.remoteExecutor) return undefined;
    const executor = models.remoteExecutor(() => {
      throw new Error('a replay makes no remote executor');
    });
    return { executor, all: args.executor === 'restate', modelSpec };
  }
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
    import('../../remote/restate-executor.js'),
    import('../../remote/restate-admin.js'),
    import('../../remote/restate-services.js'),
  ]);
  await checkIngress({ ingressUrl: restateUrl, where: '--restate-url', service: SUBAGENT_SERVICE });
  const live = () =>
    new RestateExecutor({ ingressUrl: restateUrl, adminUrl: restateAdminUrl, auth: { keys } });
  return {
    executor: models.remoteExecutor ? models.remoteExecutor(live) : live(),
    all: args.executor === 'restate',
    modelSpec,
  };
}
