// `warren mcp serve` and `warren a2a serve` as typed: what to publish, on which address, and who
// may call; every mistake a ConfigError naming the flag.
import { ConfigError } from '../core/config-error.js';
import type { RunArgs, ServeArgs } from './parsed-args.js';

/** The flags these commands read besides the run flags. */
export interface ServeValues {
  print?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  'token-file'?: string;
  'insecure-no-auth'?: boolean;
  agent?: string;
}

/** `warren mcp serve` / `warren a2a serve`: what to publish, where, and who may call. */
export function serveArgs(
  protocol: 'mcp' | 'a2a',
  rest: readonly string[],
  values: ServeValues,
  parsed: { run: RunArgs; port: number | undefined },
): ServeArgs {
  const { run, port } = parsed;
  const usage =
    protocol === 'mcp'
      ? 'warren mcp serve [--agent a,b] [--http --port <p> [--host <addr>] (--token-file <f> | --insecure-no-auth)]'
      : 'warren a2a serve --port <p> [--agent a,b] [--host <addr>] (--token-file <f> | --insecure-no-auth)';
  if (rest.length > 0) {
    throw new ConfigError(`${protocol} serve ${rest[0]}`, 'unexpected argument', usage);
  }
  if (values.print) throw new ConfigError('-p', `does not go with ${protocol} serve`, usage);
  const http = protocol === 'a2a' || values.http === true;
  const networkFlags = ['port', 'host', 'token-file', 'insecure-no-auth'] as const;
  for (const flag of networkFlags) {
    if (!http && values[flag] !== undefined) {
      throw new ConfigError(
        `--${flag}`,
        'applies to --http only (stdio needs no address or token)',
        usage,
      );
    }
  }
  if (values['token-file'] !== undefined && values['insecure-no-auth']) {
    throw new ConfigError('--insecure-no-auth', 'cannot be used with --token-file', 'choose one');
  }
  if (http && port === undefined) throw new ConfigError(`${protocol} serve`, 'needs --port', usage);
  if (port !== undefined && port > 65535) {
    throw new ConfigError('--port', `expected a port up to 65535, got ${port}`, 'e.g. --port 8765');
  }
  const served = values.agent
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (values.agent !== undefined && served?.length === 0) {
    throw new ConfigError('--agent', 'names no agent', 'e.g. --agent reviewer,explore');
  }
  return {
    ...run,
    command: 'serve',
    protocol,
    served,
    http,
    host: values.host ?? '127.0.0.1',
    port: port ?? 0,
    tokenFile: values['token-file'],
    insecureNoAuth: values['insecure-no-auth'] === true,
  };
}
