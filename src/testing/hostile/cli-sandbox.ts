// The world a CLI test runs `warren` in, fresh for every test: a person's own HOME, a project
// folder, and a loopback model server to point the run at. Internal to warren's own tests.
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type CliRun, homeEnv, runWarren } from '../cli-process.js';
import {
  type MockLlmServer,
  type RecordedRequest,
  startMockLlmServer,
} from '../mock-llm/server.js';
import { useTempDir } from '../temp-dir.js';

export interface CliSandbox {
  /** The loopback model server of the running test. */
  readonly server: MockLlmServer;
  /** The HOME of the person running warren. */
  home(): string;
  /** The project folder to run warren in. */
  project(): string;
  /** Where runs keep their sessions: `sessions` under HOME. */
  sessions(): string;
  /** The person's environment: HOME, and warren's own folder in it. */
  env(): Record<string, string>;
  /** `warren <args>` run by that person in the project, or in `cwd`, to its exit. */
  run(args: readonly string[], cwd?: string): Promise<CliRun>;
  /** Flags for a run on the loopback server, sessions kept under HOME; `extra` comes last. */
  againstServer(...extra: string[]): string[];
  /** The model calls the server saw (chat requests; any other path left out). */
  chatRequests(): RecordedRequest[];
}

/** Registers, for every test of the calling file or `describe`, a HOME, a project and a server. */
export function useCliSandbox(): CliSandbox {
  const home = useTempDir('warren-home-');
  const project = useTempDir('warren-project-');
  let server: MockLlmServer | undefined;
  beforeEach(async () => {
    server = await startMockLlmServer();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const running = (): MockLlmServer => {
    if (server === undefined) throw new Error('useCliSandbox(): the server runs only in a test');
    return server;
  };
  const sessions = () => join(home(), 'sessions');
  return {
    get server() {
      return running();
    },
    home,
    project,
    sessions,
    env: () => homeEnv(home()),
    run: (args, cwd = project()) => runWarren(args, { cwd, env: homeEnv(home()) }),
    againstServer: (...extra) => [
      '--model',
      'openai-compatible:test-model',
      '--base-url',
      `${running().url}/v1`,
      '--session-dir',
      sessions(),
      ...extra,
    ],
    chatRequests: () => running().requests.filter((request) => request.api !== undefined),
  };
}
