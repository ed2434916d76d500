// Children on Restate workers for a run (`--restate-url`; all of them with `--executor restate`):
// the executor, loaded only when asked for, and its ingress checked first, so a wrong URL or no
// registered worker is one line at start.
import type { RemotePort } from '../agents/remote-port.js';
import type { RunArgs } from './parsed-args.js';

export async function remoteFor(
  args: RunArgs,
  definitionModel: string | undefined,
): Promise<Omit<RemotePort, 'inboxKey'> | undefined> {
  const { restateUrl, restateAdminUrl } = args;
  if (restateUrl === undefined || restateAdminUrl === undefined) return undefined;
  const [{ RestateExecutor }, { checkIngress }, { SUBAGENT_SERVICE }] = await Promise.all([
    import('../remote/restate-executor.js'),
    import('../remote/restate-admin.js'),
    import('../remote/restate-services.js'),
  ]);
  await checkIngress({ ingressUrl: restateUrl, where: '--restate-url', service: SUBAGENT_SERVICE });
  return {
    executor: new RestateExecutor({ ingressUrl: restateUrl, adminUrl: restateAdminUrl }),
    all: args.executor === 'restate',
    modelSpec: args.model ?? definitionModel,
  };
}
