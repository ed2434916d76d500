// The command line of remote children, checked: `warren restate serve|register|keygen`, and the
// run flags that pick where children run (`--executor`, `--restate-url`, `--restate-admin-url`,
// `--remote-key-file`, and their variables). Nothing here touches the network or reads a key.
import { ConfigError } from '../core/config-error.js';
import type { PermissionMode } from '../core/permission-policy.js';
import { isProviderName, type ProviderName } from '../model/model-endpoint.js';
import { PERMISSION_MODES } from '../permissions/create-permission-policy.js';
import { checkedUrl, defaultAdminUrl } from '../remote/restate-admin.js';
import { DEFAULT_LIMITS } from '../remote/worker-limits.js';

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
  /** `--remote-key-file`: the key shared with workers (else WARREN_REMOTE_KEY), read at start. */
  remoteKeyFile?: string;
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
      /** Its key file (else WARREN_REMOTE_KEY); read when it starts. */
      remoteKeyFile: string | undefined;
      /** Serve requests nobody signed: the explicit, warned-about opt-out. */
      insecureNoAuth: boolean;
      /** Where its openai-compatible models send requests (else its WARREN_BASE_URL). */
      baseUrl: string | undefined;
      /** The providers its children's models may be from. */
      providers: readonly ProviderName[];
      /** The highest permission mode its children may run in. */
      maxPermissionMode: PermissionMode;
      /** Restate request identity keys: only requests restate-server signed reach its handlers. */
      identityKeys: readonly string[];
    }
  | { command: 'restate'; action: 'register'; adminUrl: string; workerUrl: string }
  | { command: 'restate'; action: 'keygen' };

interface RestateValues {
  executor?: string;
  'restate-url'?: string;
  'restate-admin-url'?: string;
  'admin-url'?: string;
  'worker-url'?: string;
  port?: string;
  host?: string;
  'remote-key-file'?: string;
  'insecure-no-auth'?: boolean;
  'base-url'?: string;
  providers?: string;
  'max-permission-mode'?: string;
  'restate-identity-key'?: string;
}

export const RESTATE_OPTIONS = {
  executor: { type: 'string' },
  'restate-url': { type: 'string' },
  'restate-admin-url': { type: 'string' },
  'admin-url': { type: 'string' },
  'worker-url': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'remote-key-file': { type: 'string' },
  'insecure-no-auth': { type: 'boolean' },
  providers: { type: 'string' },
  'max-permission-mode': { type: 'string' },
  'restate-identity-key': { type: 'string' },
} as const;

const SERVE_USAGE =
  'warren restate serve --port <p> [--host <addr>] [--remote-key-file <file>] [--base-url <url>] [--providers <list>] [--max-permission-mode <mode>] [--restate-identity-key <key>] [--restate-url <ingress>]';
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
  return {
    executor,
    ...urls,
    ...(values['remote-key-file'] === undefined
      ? {}
      : { remoteKeyFile: values['remote-key-file'] }),
  };
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
      remoteKeyFile: values['remote-key-file'],
      insecureNoAuth: values['insecure-no-auth'] === true,
      baseUrl:
        values['base-url'] === undefined
          ? undefined
          : checkedUrl(values['base-url'], '--base-url', 'http://127.0.0.1:11434/v1'),
      providers: providersOf(values.providers),
      maxPermissionMode: maxModeOf(values['max-permission-mode']),
      identityKeys: identityKeysOf(values['restate-identity-key']),
    };
  }
  if (action === 'keygen') {
    if (rest.length > 0)
      throw new ConfigError(
        `restate keygen ${rest[0]}`,
        'unexpected argument',
        'warren restate keygen',
      );
    return { command: 'restate', action: 'keygen' };
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
    `${SERVE_USAGE}, or ${REGISTER_USAGE}, or warren restate keygen`,
  );
}

function providersOf(value: string | undefined): readonly ProviderName[] {
  if (value === undefined) return DEFAULT_LIMITS.providers;
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!isProviderName(name)) {
      throw new ConfigError(
        '--providers',
        `unknown provider "${name}"`,
        'a comma-separated list of anthropic, openai, openai-compatible, scripted',
      );
    }
  }
  return names as ProviderName[];
}

function identityKeysOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  const keys = value.split(',').map((key) => key.trim());
  for (const key of keys) {
    if (!/^publickeyv1_[1-9A-HJ-NP-Za-km-z]{32,64}$/.test(key)) {
      throw new ConfigError(
        '--restate-identity-key',
        'expected the public key restate-server logs at start (publickeyv1_…)',
        'see "Locking down service access" in Restate\'s security docs',
      );
    }
  }
  return keys;
}

function maxModeOf(value: string | undefined): PermissionMode {
  if (value === undefined) return DEFAULT_LIMITS.maxMode;
  if ((PERMISSION_MODES as readonly string[]).includes(value)) return value as PermissionMode;
  throw new ConfigError(
    '--max-permission-mode',
    `unknown mode "${value}"`,
    `use one of: ${PERMISSION_MODES.join(', ')}`,
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
