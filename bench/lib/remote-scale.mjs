// The remote scenario, run as its own process: a real restate-server (the npm package's binary,
// a temp base dir, free ports) and one `warren restate serve` worker process, against the same
// children run in this process with no journal (the in-process executor's path). Times a
// one-call child's spawn → result, a child of 2K-1 steps (to get the cost of one journaled
// step), and `children` one-call children at once. Prints `RESULT <json>` like the workers do.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../dist/', import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { RestateExecutor } = await import(new URL('remote/restate-executor.js', dist));
const { registerWorker } = await import(new URL('remote/restate-admin.js', dist));
const { checkChildSpec } = await import(new URL('remote/child-spec-schema.js', dist));
const { runRemoteChild } = await import(new URL('run/worker-child.js', dist));
const { directSteps } = await import(new URL('core/step-runner.js', dist));
const { resolveAgentDefinitions } = await import(
  new URL('definitions/load-agent-definitions.js', dist)
);

const settings = JSON.parse(process.argv[2] ?? '{}');
const { mockURL, spawns = 20, k = 21, stepReps = 5, children = 1000 } = settings;
const scratch = mkdtempSync(path.join(tmpdir(), 'warren-bench-remote-'));
const cleanups = [];
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRestate() {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = createRequire(import.meta.url).resolve(
    `@restatedev/restate-server-${platform}/package.json`,
  );
  const binary = path.join(path.dirname(pkg), 'bin', 'restate-server');
  const [ingress, admin, node] = [await freePort(), await freePort(), await freePort()];
  const log = openSync(path.join(scratch, 'server.log'), 'a');
  const child = spawn(
    binary,
    ['--base-dir', path.join(scratch, 'data'), '--no-logo', '--listen-mode', 'tcp'],
    {
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH,
        HOME: scratch,
        RESTATE_DISABLE_TELEMETRY: 'true',
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
      },
    },
  );
  cleanups.push(() => child.kill('SIGKILL'));
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  for (const end = Date.now() + 90_000; ; await sleep(100)) {
    const ok = await Promise.all([
      fetch(`${adminUrl}/health`).then(
        (r) => r.ok,
        () => false,
      ),
      fetch(`${ingressUrl}/restate/health`).then(
        (r) => r.ok,
        () => false,
      ),
    ]);
    if (ok.every(Boolean)) return { ingressUrl, adminUrl };
    if (Date.now() > end) throw new Error('restate-server did not answer within 90 s');
  }
}

/** The remote key this bench's client and worker share (a worker serves only signed specs). */
const REMOTE_KEY = `wrk1_bench-${randomBytes(24).toString('hex')}`;

function startWorker() {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'warren.js'),
      'restate',
      'serve',
      '--port',
      '0',
      '--base-url',
      `${mockURL}/v1`,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH, HOME: scratch, WARREN_REMOTE_KEY: REMOTE_KEY },
    },
  );
  cleanups.push(() => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`the worker exited (${code})`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
  });
}

const generalPurpose = resolveAgentDefinitions({}).get('general-purpose');
let serial = 0;

/** A child's spec: `stepper` children take 2K-1 steps, the others one model call. */
function spec(kind) {
  const definition =
    kind === 'stepper'
      ? {
          ...generalPurpose,
          name: 'stepper',
          prompt: 'ROLE:stepper Take small steps.',
          maxTurns: k + 5,
        }
      : generalPurpose;
  return {
    agentId: `agent_bench-${process.pid}-${++serial}`,
    parentId: 'main_bench',
    depth: 1,
    agentPath: `main/Agent#${serial}/${definition.name}`,
    description: 'bench child',
    prompt: `bench task ${serial}`,
    definition,
    definitions: [],
    tools: ['Read', 'Glob', 'Grep'],
    model: { spec: 'openai-compatible:bench', baseUrl: `${mockURL}/v1` },
    cwd: scratch,
    budget: { maxTurns: k + 5 },
    permissions: { mode: 'default', allow: [], deny: [], ask: [] },
    maxDepth: 1,
    calls: {},
  };
}

async function local(kind) {
  const started = performance.now();
  const result = await runRemoteChild({
    spec: checkChildSpec(spec(kind)),
    steps: directSteps,
    signal: new AbortController().signal,
    startedAt: Date.now(),
    modelBaseUrl: `${mockURL}/v1`,
  });
  if (result.status !== 'completed') throw new Error(`local child: ${result.error}`);
  return performance.now() - started;
}

async function remote(executor, kind) {
  const started = performance.now();
  const child = spec(kind);
  await executor.submit(child);
  const result = await executor.result(child.agentId);
  if (result.status !== 'completed') throw new Error(`remote child: ${result.error}`);
  return performance.now() - started;
}

/** `count` children at once (at most 200 calls in flight): children per second. */
async function throughput(count, one) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(200, count) }, async () => {
      while (next < count) {
        next++;
        await one();
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function configure(fields) {
  await fetch(`${mockURL}/config`, { method: 'POST', body: JSON.stringify(fields) });
}

try {
  const restate = await startRestate();
  const workerUrl = await startWorker();
  await registerWorker({ adminUrl: restate.adminUrl, workerUrl });
  const executor = new RestateExecutor({ ...restate, auth: { keys: [REMOTE_KEY] } });
  await configure({ k, latencyMs: 0 });
  // Warm-up: both paths once, so neither pays for loading code in its timings.
  await local('one');
  await remote(executor, 'one');
  await local('stepper');
  await remote(executor, 'stepper');
  const spawnLocal = [];
  const spawnRemote = [];
  for (let i = 0; i < spawns; i++) {
    spawnLocal.push(await local('one'));
    spawnRemote.push(await remote(executor, 'one'));
  }
  const stepperLocal = [];
  const stepperRemote = [];
  for (let i = 0; i < stepReps; i++) {
    stepperLocal.push(await local('stepper'));
    stepperRemote.push(await remote(executor, 'stepper'));
  }
  const steps = 2 * k - 1;
  // What the extra 2K-2 steps cost remotely beyond what they cost here, per step.
  const perStepMs =
    (median(stepperRemote) - median(spawnRemote) - (median(stepperLocal) - median(spawnLocal))) /
    (steps - 1);
  const remotePerSecond = await throughput(children, () => remote(executor, 'one'));
  const localPerSecond = await throughput(children, () => local('one'));
  const sample = {
    spawnLocalMs: median(spawnLocal),
    spawnRemoteMs: median(spawnRemote),
    stepperLocalMs: median(stepperLocal),
    stepperRemoteMs: median(stepperRemote),
    steps,
    perStepMs,
    children,
    remotePerSecond,
    localPerSecond,
  };
  console.log(`RESULT ${JSON.stringify({ ok: true, samples: [sample] })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
} finally {
  for (const cleanup of cleanups) cleanup();
  await sleep(200);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(0);
}
