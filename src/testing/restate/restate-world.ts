// The world a remote-children CLI test runs in: a real restate-server, `warren restate serve`
// workers registered with it (through `warren restate register`), a loopback model server whose
// replies a test scripts per conversation, and a project folder. Internal to warren's own tests.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { type CliRun, runWarren } from '../cli-process.js';
import {
  type MockLlmServer,
  type MockReply,
  type RecordedRequest,
  startMockLlmServer,
} from '../mock-llm/server.js';
import { makeTempDir } from '../temp-dir.js';
import { identityKeyPair } from './restate-identity.js';
import {
  freePorts,
  type RestateServer,
  restateServerBinary,
  startRestateServer,
} from './restate-server.js';
import { startWarrenWorker, type WarrenWorker } from './warren-worker.js';

/** The parent's key: it must never reach a worker. */
export const PARENT_KEY = 'parent-secret-key';
/** The worker's own key, from its own environment. */
export const WORKER_KEY = 'worker-own-key';
/** The remote key parent and worker share: requests signed with it are the only ones served. */
export const REMOTE_KEY = 'wrk1_test-remote-key-shared-by-parent-and-worker';

/** One model request as a script sees it: whose conversation, at which turn. */
export interface Turn {
  /** The first user message (the prompt), as JSON text. */
  prompt: string;
  /** Assistant messages so far: 0 for the first call. */
  turn: number;
  /** The last message, as JSON text (a tool result, a notification). */
  last: string;
  request: RecordedRequest;
}

export type Script = (turn: Turn) => MockReply | Promise<MockReply>;

/** A parent's reply that starts a general-purpose child on a worker (isolation "remote"). */
export function remoteAgentCall(prompt: string, description = 'remote work'): MockReply {
  return {
    toolCalls: [
      {
        name: 'Agent',
        input: { subagent_type: 'general-purpose', description, prompt, isolation: 'remote' },
      },
    ],
  };
}

export interface RestateWorld {
  readonly server: RestateServer;
  readonly llm: MockLlmServer;
  readonly project: string;
  worker: WarrenWorker;
  readonly workerPort: number;
  /** Starts a worker again on the same port (after a kill -9): the registered URL answers again. */
  restartWorker(): Promise<void>;
  /** Flags for `warren -p` against the loopback model and this Restate. */
  flags(...extra: string[]): string[];
  /** The parent's environment (its own key, HOME in the project). */
  env(): Record<string, string>;
  run(args: readonly string[]): Promise<CliRun>;
  /** Model requests whose prompt contains `marker`, in arrival order. */
  requestsOf(marker: string): Turn[];
  /** A file of the project, or '' when it does not exist. */
  read(name: string): string;
  stop(): Promise<void>;
}

function turnOf(request: RecordedRequest): Turn {
  const messages =
    (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const text = (message: { content: unknown } | undefined) =>
    message === undefined
      ? ''
      : typeof message.content === 'string'
        ? message.content
        : JSON.stringify(message.content);
  return {
    prompt: text(messages.find((message) => message.role === 'user')),
    turn: messages.filter((message) => message.role === 'assistant').length,
    last: text(messages.at(-1)),
    request,
  };
}

/** How a suite's worker is configured beyond its key and its model endpoint. */
export interface WorldOptions {
  /** Its `--max-permission-mode`; default bypassPermissions, so children run as freely as parents. */
  maxPermissionMode?: string;
  /** restate-server signs its requests (Restate's request identity), and the worker checks them. */
  identityKeys?: boolean;
}

async function startRestateWorld(
  script: () => Script,
  options: WorldOptions,
): Promise<RestateWorld> {
  const project = await makeTempDir('warren-remote-');
  const identity = options.identityKeys ? await identityKeyPair(project) : undefined;
  const server = await startRestateServer({ identityKeyPemFile: identity?.pemFile });
  const llm = await startMockLlmServer({
    handler: (request) => (request.api ? script()(turnOf(request)) : undefined),
  });
  const [workerPort] = (await freePorts(1)) as [number];
  const workerEnv = { HOME: project, WARREN_API_KEY: WORKER_KEY, WARREN_REMOTE_KEY: REMOTE_KEY };
  // The worker's own configuration: its model endpoint, and children as free as their parents.
  const workerArgs = [
    '--base-url',
    `${llm.url}/v1`,
    '--max-permission-mode',
    options.maxPermissionMode ?? 'bypassPermissions',
    ...(identity ? ['--restate-identity-key', identity.publicKey] : []),
  ];
  const world: RestateWorld = {
    server,
    llm,
    project,
    worker: await startWarrenWorker(workerPort, workerEnv, workerArgs),
    workerPort,
    async restartWorker() {
      world.worker = await startWarrenWorker(workerPort, workerEnv, workerArgs);
    },
    flags: (...extra) => [
      '--model',
      'openai-compatible:test-model',
      '--base-url',
      `${llm.url}/v1`,
      '--session-dir',
      `${project}/.sessions`,
      '--restate-url',
      server.ingressUrl,
      '--restate-admin-url',
      server.adminUrl,
      '--permission-mode',
      'bypassPermissions',
      '--output-format',
      'stream-json',
      ...extra,
    ],
    env: () => ({ HOME: project, WARREN_API_KEY: PARENT_KEY, WARREN_REMOTE_KEY: REMOTE_KEY }),
    run: (args) => runWarren(args, { cwd: project, env: world.env(), timeoutMs: 240_000 }),
    requestsOf: (marker) =>
      llm.requests
        .filter((request) => request.api)
        .map(turnOf)
        .filter((turn) => turn.prompt.includes(marker)),
    read(name) {
      try {
        return readFileSync(`${project}/${name}`, 'utf8');
      } catch {
        return '';
      }
    },
    async stop() {
      await world.worker.stop();
      await llm.close();
      await server.stop();
      await rm(project, { recursive: true, force: true });
    },
  };
  const registered = await runWarren(
    ['restate', 'register', world.worker.url, '--admin-url', server.adminUrl],
    { env: { HOME: project } },
  );
  if (registered.code !== 0)
    throw new Error(`warren restate register failed: ${registered.stderr}`);
  return world;
}

/** A test file's world, and the script its model follows (each test sets its own). */
export interface RestateSuite {
  /** Why the file's tests are skipped (no restate-server here), or false. */
  readonly skip: string | false;
  readonly world: RestateWorld;
  script: Script;
}

/** One world for the tests of a file: started before them, stopped after them. */
export function restateSuite(what: string, options: WorldOptions = {}): RestateSuite {
  const binary = restateServerBinary();
  const skip = 'missing' in binary ? binary.missing : false;
  if (skip) console.warn(`skipping ${what}: ${skip}`);
  let world: RestateWorld | undefined;
  const suite: RestateSuite = {
    skip,
    get world() {
      if (!world) throw new Error('the Restate world has not started');
      return world;
    },
    script: () => ({ text: 'no script' }),
  };
  beforeAll(async () => {
    if (!skip) world = await startRestateWorld(() => suite.script, options);
  }, 180_000);
  afterAll(async () => world?.stop(), 60_000);
  return suite;
}
