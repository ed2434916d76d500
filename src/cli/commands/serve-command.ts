// `warren mcp serve` and `warren a2a serve`: the chosen definitions published over a protocol
// until the process is stopped. HTTP needs a bearer token unless the user says otherwise.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import type { ServeAuth } from '../../serve/bearer-auth.js';
import { packageVersion } from '../package-version.js';
import type { ServeArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { openServeHost } from './serve-host.js';

export async function runServeCommand(args: ServeArgs, io: CliIo): Promise<number> {
  const auth = args.http ? serveAuth(args, io) : undefined;
  const host = await openServeHost(args, io);
  if (host.definitions.length === 0) {
    await host.close();
    throw new ConfigError(
      `${args.protocol} serve`,
      'has no agent definitions to serve',
      'add one under .warren/agents/, or pass --agents-dir',
    );
  }
  const stopped = new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
  try {
    if (args.protocol === 'a2a') {
      const { serveA2a } = await import('../../serve/a2a-http.js');
      const server = await serveA2a(host, {
        host: args.host,
        port: args.port,
        auth: auth!,
        version: packageVersion(),
        taskDir: join(host.sessionDir, 'a2a-tasks'),
      });
      io.stderr(`warren: A2A agent card at ${server.url}/.well-known/agent-card.json\n`);
      await stopped;
      await server.close();
    } else if (args.http) {
      const { serveMcpHttp, MCP_PATH } = await import('../../serve/mcp-http.js');
      const server = await serveMcpHttp(host, {
        host: args.host,
        port: args.port,
        auth: auth!,
        version: packageVersion(),
      });
      io.stderr(`warren: MCP server at ${server.url}${MCP_PATH}\n`);
      await stopped;
      await server.close();
    } else {
      const { serveMcpStdio } = await import('../../serve/mcp-stdio.js');
      await serveMcpStdio(host, { version: packageVersion(), stopped });
    }
  } finally {
    await host.close();
  }
  return 0;
}

/** The token callers must send: `--token-file`, else WARREN_SERVE_TOKEN; none only when asked. */
function serveAuth(args: ServeArgs, io: CliIo): ServeAuth {
  if (args.insecureNoAuth) {
    io.stderr(
      'warren: warning: --insecure-no-auth: anyone who reaches this address can run these agents\n',
    );
    return { token: undefined };
  }
  const token =
    args.tokenFile === undefined
      ? process.env.WARREN_SERVE_TOKEN?.trim()
      : tokenFrom(args.tokenFile);
  if (!token) {
    throw new ConfigError(
      `${args.protocol} serve`,
      'has no token for its callers',
      'pass --token-file <file> or set WARREN_SERVE_TOKEN (callers send Authorization: Bearer <token>); --insecure-no-auth serves anyone',
    );
  }
  return { token };
}

function tokenFrom(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(
      `--token-file ${file}`,
      `cannot be read (${code})`,
      'give a file holding the token',
    );
  }
  const token = text
    .split('\n')
    .map((line) => line.trim())
    .find(Boolean);
  if (!token)
    throw new ConfigError(`--token-file ${file}`, 'is empty', 'write the token on its first line');
  return token;
}
