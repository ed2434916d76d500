// A real restate-server for tests, from the npm package's binary: its own temp base dir and
// free ports on 127.0.0.1, telemetry off, stopped (or killed -9 and restarted) by its PID only.
// Internal to warren's own tests; not part of `warren/testing`.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const PLATFORMS: Readonly<Record<string, string>> = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
};

/** The binary `npm ci` installed for this machine, or why there is none (a reason to skip). */
export function restateServerBinary(): { path: string } | { missing: string } {
  const platform = PLATFORMS[`${process.platform}-${process.arch}`];
  if (!platform) {
    return {
      missing: `restate-server ships for x86-64 and arm64 Linux and macOS only, not ${process.platform}-${process.arch}`,
    };
  }
  try {
    const pkg = createRequire(import.meta.url).resolve(
      `@restatedev/restate-server-${platform}/package.json`,
    );
    const binary = path.join(path.dirname(pkg), 'bin', 'restate-server');
    if (existsSync(binary)) return { path: binary };
  } catch {
    // not installed: said below
  }
  return {
    missing: `@restatedev/restate-server-${platform} is not installed (run npm ci)`,
  };
}

export interface RestateServer {
  readonly ingressUrl: string;
  readonly adminUrl: string;
  readonly baseDir: string;
  readonly pid: number;
  /** kill -9, as a crash: nothing is flushed, nothing cleaned up. */
  kill9(): Promise<void>;
  /** Starts it again on the same ports and data (after kill9), and waits until it answers. */
  restart(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after a while) and removes its data. */
  stop(): Promise<void>;
}

/** Every server started by this process, killed by PID if the process exits first. */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export interface RestateServerOptions {
  /** A PEM file of an ED25519 private key: the server signs its requests to workers with it. */
  identityKeyPemFile?: string;
}

export async function startRestateServer(
  options: RestateServerOptions = {},
): Promise<RestateServer> {
  const binary = restateServerBinary();
  if ('missing' in binary) throw new Error(binary.missing);
  const baseDir = await mkdtemp(path.join(tmpdir(), 'warren-restate-'));
  const [ingress, admin, node] = await freePorts(3);
  const env = {
    PATH: process.env.PATH,
    HOME: baseDir,
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
    // Small: tests start few invocations, and the machine is shared.
    RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '256 MB',
    RESTATE_DEFAULT_NUM_PARTITIONS: '4',
    ...(options.identityKeyPemFile && {
      RESTATE_REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE: options.identityKeyPemFile,
    }),
  };
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  let child: ChildProcess;
  const launch = async () => {
    const log = openSync(path.join(baseDir, 'server.log'), 'a');
    child = spawn(
      binary.path,
      ['--base-dir', path.join(baseDir, 'data'), '--no-logo', '--listen-mode', 'tcp'],
      { env, stdio: ['ignore', log, log] },
    );
    started.add(child);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(
          new Error(
            `restate-server exited (${code}) before it answered; see ${baseDir}/server.log`,
          ),
        ),
      ),
    );
    exited.catch(() => {});
    await Promise.race([answers(adminUrl, '/health', ingressUrl), exited]);
  };
  const ended = (target: ChildProcess) =>
    target.exitCode !== null || target.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => target.once('exit', () => resolve()));
  await launch();
  return {
    ingressUrl,
    adminUrl,
    baseDir,
    get pid() {
      return child.pid ?? -1;
    },
    async kill9() {
      child.kill('SIGKILL');
      await ended(child);
      started.delete(child);
    },
    restart: launch,
    async stop() {
      const target = child;
      target.kill('SIGTERM');
      const timer = setTimeout(() => target.kill('SIGKILL'), 10_000);
      await ended(target);
      clearTimeout(timer);
      started.delete(target);
      await rm(baseDir, { recursive: true, force: true });
    },
  };
}

/** Waits until the admin API and the ingress both answer (a cold start on a busy machine is slow). */
async function answers(adminUrl: string, healthPath: string, ingressUrl: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await Promise.all([
      fetch(`${adminUrl}${healthPath}`).then(
        (response) => response.ok,
        () => false,
      ),
      fetch(`${ingressUrl}/restate/health`).then(
        (response) => response.ok,
        () => false,
      ),
    ]);
    if (ok.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error('restate-server did not answer within 90 s');
    await delay(100);
  }
}

/** Ports free on 127.0.0.1 right now (the OS picks them; a race with others is unlikely). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
