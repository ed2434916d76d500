// The command line of remote children, checked: `warren restate serve|register`, and the run
// flags that pick where children run (`--executor`, `--restate-url`, `--restate-admin-url`, and
// their variables). Nothing here touches the network; URLs are only parsed.
import { ConfigError } from '../core/config-error.js';
import { checkedUrl, defaultAdminUrl } from '../remote/restate-admin.js';

const EXECUTORS = ['local', 'restate'] as const;
export type ExecutorName = (typeof EXECUTORS)[number];

/** Where a run's children may go: nowhere but here, or through Restate. */
export interface ExecutorArgs {
  /** `restate`: every child runs on a worker; `local`: only those that ask (`isolation: remote`). */
  executor: ExecutorName;
  /** The Restate ingress, when one is given (a flag or WARREN_RESTATE_URL). */
  restateUrl: string | undefined;
  /** The admin API (cancel): the flag, WARREN_RESTATE_ADMIN_URL, or port 9070 beside the ingress. */
  restateAdminUrl: string | undefined;
}

export type RestateArgs =
  | {
      command: 'restate';
      action: 'serve';
      port: number;
      host: string;
      /** Where this worker's children's own remote children go, if anywhere. */
      restateUrl: string | undefined;
      restateAdminUrl: string | undefined;
    }
  | { command: 'restate'; action: 'register'; adminUrl: string; workerUrl: string };

interface RestateValues {
  executor?: string;
  'restate-url'?: string;
  'restate-admin-url'?: string;
  'admin-url'?: string;
  'worker-url'?: string;
  port?: string;
  host?: string;
}

export const RESTATE_OPTIONS = {
  executor: { type: 'string' },
  'restate-url': { type: 'string' },
  'restate-admin-url': { type: 'string' },
  'admin-url': { type: 'string' },
  'worker-url': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
} as const;

const SERVE_USAGE = 'warren restate serve --port <p> [--host <addr>] [--restate-url <ingress>]';
const REGISTER_USAGE = 'warren restate register <worker-url> [--admin-url <admin>]';

/** `warren -p`'s executor flags; `--executor restate` needs an ingress URL. */
export function executorArgs(
  values: RestateValues,
  env: Record<string, string | undefined> = process.env,
): ExecutorArgs {
  const executor = oneExecutor(values.executor ?? 'local');
  const urls = restateUrls(values, env);
  if (executor === 'restate' && urls.restateUrl === undefined) {
    throw new ConfigError(
      '--executor restate',
      'needs the Restate ingress URL',
      'pass --restate-url http://127.0.0.1:8080 (or set WARREN_RESTATE_URL)',
    );
  }
  return { executor, ...urls };
}

/** `warren restate serve|register`. */
export function restateArgs(words: readonly string[], values: RestateValues): RestateArgs {
  const [action, ...rest] = words;
  if (action === 'serve') {
    if (rest.length > 0)
      throw new ConfigError(`restate serve ${rest[0]}`, 'unexpected argument', SERVE_USAGE);
    if (values.port === undefined)
      throw new ConfigError('warren restate serve', 'needs --port', SERVE_USAGE);
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65_535) {
      throw new ConfigError(
        '--port',
        `expected a port number (0–65535), got "${values.port}"`,
        SERVE_USAGE,
      );
    }
    return {
      command: 'restate',
      action: 'serve',
      port,
      host: values.host ?? '127.0.0.1',
      ...restateUrls(values, process.env),
    };
  }
  if (action === 'register') {
    const workerUrl = rest[0] ?? values['worker-url'];
    if (workerUrl === undefined) {
      throw new ConfigError('warren restate register', 'needs the worker URL', REGISTER_USAGE);
    }
    if (rest.length > 1 || (rest[0] !== undefined && values['worker-url'] !== undefined)) {
      throw new ConfigError('warren restate register', 'takes one worker URL', REGISTER_USAGE);
    }
    const given = values['admin-url'] ?? values['restate-admin-url'];
    const adminUrl =
      given === undefined
        ? (restateUrls(values, process.env).restateAdminUrl ?? 'http://127.0.0.1:9070')
        : checkedUrl(given, '--admin-url', 'http://127.0.0.1:9070');
    return {
      command: 'restate',
      action: 'register',
      adminUrl,
      workerUrl: checkedUrl(workerUrl, 'the worker URL', 'http://127.0.0.1:9080'),
    };
  }
  throw new ConfigError(
    `restate ${action ?? ''}`.trim(),
    action === undefined ? 'needs a command' : 'is not a restate command',
    `${SERVE_USAGE}, or ${REGISTER_USAGE}`,
  );
}

function restateUrls(
  values: RestateValues,
  env: Record<string, string | undefined>,
): Pick<ExecutorArgs, 'restateUrl' | 'restateAdminUrl'> {
  const ingress = values['restate-url'] ?? (env.WARREN_RESTATE_URL || undefined);
  const admin = values['restate-admin-url'] ?? (env.WARREN_RESTATE_ADMIN_URL || undefined);
  const example = 'http://127.0.0.1:8080';
  const restateUrl =
    ingress === undefined
      ? undefined
      : checkedUrl(
          ingress,
          values['restate-url'] ? '--restate-url' : 'WARREN_RESTATE_URL',
          example,
        );
  const restateAdminUrl =
    admin !== undefined
      ? checkedUrl(
          admin,
          values['restate-admin-url'] ? '--restate-admin-url' : 'WARREN_RESTATE_ADMIN_URL',
          'http://127.0.0.1:9070',
        )
      : restateUrl && defaultAdminUrl(restateUrl);
  return { restateUrl, restateAdminUrl };
}

function oneExecutor(value: string): ExecutorName {
  if ((EXECUTORS as readonly string[]).includes(value)) return value as ExecutorName;
  throw new ConfigError(
    '--executor',
    `unknown value "${value}"`,
    `use one of: ${EXECUTORS.join(', ')}`,
  );
}
