// `kind: remote` definitions, as Gemini CLI writes them, run as sub-agents over A2A against a
// real `warren a2a serve` on loopback: the result (structured) and the remote side's usage handed
// back like any child's, a background remote child with its notification, Ctrl-C cancelling the
// remote task, and the project trust gate in front of the address a repository chose.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { allTasks, bearerA2aClient } from '../testing/a2a-client.js';
import { homeEnv, jsonLines, runWarren, startWarren } from '../testing/cli-process.js';
import {
  type ServedProject,
  type ServingWarren,
  servedProject,
  serveWarren,
  writeRemoteDefinition,
} from '../testing/served-project.js';
import { makeTempDir } from '../testing/temp-dir.js';

const TOKEN = 'remote-token';
let served: ServedProject;
let caller: string;
let home: string;

beforeEach(async () => {
  served = await servedProject();
  await writeFile(join(served.home, 'token'), `${TOKEN}\n`);
  caller = await makeTempDir('warren-a2a-caller-');
  home = await makeTempDir('warren-a2a-caller-home-');
});

/** `warren a2a serve` publishing the one served definition `agent`. */
const serveOne = (agent: string) =>
  serveWarren(served, [
    'a2a',
    'serve',
    '--port',
    '0',
    '--agent',
    agent,
    '--token-file',
    join(served.home, 'token'),
  ]);

/** The caller's `.gemini/agents/far.md`: Gemini CLI's own format for a remote agent. */
async function farDefinition(server: ServingWarren): Promise<void> {
  await writeRemoteDefinition(caller, '.gemini/agents', server.url, '$FAR_TOKEN');
}

/** The caller's scripted model: the main agent calls `far` with `input`, then says `after`. */
async function callerScript(input: Record<string, unknown>, after: string[]): Promise<string> {
  const script = join(caller, 'script.json');
  const turns = [
    {
      match: { agent: '/^main$/' },
      tool_calls: [
        { name: 'Agent', input: { description: 'far work', subagent_type: 'far', ...input } },
      ],
    },
    ...after.map((text) => ({ match: { agent: '/^main$/' }, text })),
  ];
  await writeFile(script, JSON.stringify({ turns }));
  return script;
}

const callerEnv = () => ({ ...homeEnv(home), FAR_TOKEN: TOKEN });
const callerFlags = (script: string, ...extra: string[]) => [
  '-p',
  'go',
  '--model',
  `scripted:${script}`,
  '--session-dir',
  join(home, 'sessions'),
  ...extra,
];

describe('a kind: remote definition (A2A)', () => {
  it("runs on the remote warren and hands back its structured result and usage like any child's", async () => {
    const server = await serveOne('counter');
    try {
      await farDefinition(server);
      const script = await callerScript({ prompt: 'COUNT files' }, ['the count is in']);
      const run = await runWarren(
        callerFlags(script, '--trust-project', '--output-format', 'json'),
        {
          env: callerEnv(),
          cwd: caller,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.result).toBe('the count is in');
      const far = result.agents.find((agent: { agent_type: string }) => agent.agent_type === 'far');
      expect(far).toMatchObject({ status: 'completed', structured_output: { count: 3 } });
      expect(far.usage.input_tokens).toBeGreaterThan(0);
      expect(server.stderr()).not.toContain(TOKEN);
    } finally {
      await server.stop();
    }
  });

  it('runs in the background: the parent is notified when the remote task ends', async () => {
    const server = await serveOne('lead');
    try {
      await farDefinition(server);
      const script = await callerScript({ prompt: 'PLAN it', run_in_background: true }, [
        'waiting',
        'all done',
      ]);
      const run = await runWarren(
        callerFlags(script, '--trust-project', '--output-format', 'stream-json'),
        {
          env: callerEnv(),
          cwd: caller,
        },
      );
      expect(run.code).toBe(0);
      const lines = jsonLines(run.stdout);
      expect(lines).toContainEqual(
        expect.objectContaining({
          type: 'task_notification',
          status: 'completed',
          task_type: 'remote_agent',
        }),
      );
      expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'all done' });
    } finally {
      await server.stop();
    }
  });

  it('cancels the remote task when the run is interrupted', async () => {
    const server = await serveOne('slow');
    try {
      await farDefinition(server);
      const script = await callerScript({ prompt: 'SLOW work' }, ['never']);
      const running = startWarren(
        callerFlags(script, '--trust-project', '--output-format', 'stream-json'),
        {
          env: callerEnv(),
          cwd: caller,
        },
      );
      await running.waitForLine((line) => line.type === 'system');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      running.child.kill('SIGINT');
      await running.exited;
      const tasks = await allTasks(await bearerA2aClient(server.url, TOKEN));
      expect(tasks.map((task) => task.status?.state)).toEqual([TaskState.TASK_STATE_CANCELED]);
    } finally {
      await server.stop();
    }
  });

  it('re-attaches a resumed session to the remote task it started before a crash', async () => {
    const server = await serveOne('pause');
    try {
      await farDefinition(server);
      const script = await callerScript({ prompt: 'PAUSE', run_in_background: true }, ['waiting']);
      const first = startWarren(
        callerFlags(script, '--trust-project', '--output-format', 'stream-json'),
        {
          env: callerEnv(),
          cwd: caller,
        },
      );
      await first.waitForLine((line) => line.type === 'task_started');
      const sessionId = String(first.lines[0]?.session_id);
      // A crash: no chance to stop the task or tell anyone.
      first.child.kill('SIGKILL');
      await first.exited;
      const resumedScript = join(caller, 'resumed.json');
      await writeFile(
        resumedScript,
        JSON.stringify({ turns: [{ text: 'resumed waiting' }, { text: 'all done' }] }),
      );
      const resumed = await runWarren(
        [
          ...callerFlags(resumedScript, '--trust-project', '--output-format', 'stream-json'),
          '--resume',
          sessionId,
        ],
        { env: callerEnv(), cwd: caller },
      );
      expect(resumed.code).toBe(0);
      expect(jsonLines(resumed.stdout)).toContainEqual(
        expect.objectContaining({
          type: 'task_notification',
          status: 'completed',
          task_type: 'remote_agent',
        }),
      );
      const tasks = await allTasks(await bearerA2aClient(server.url, TOKEN));
      expect(tasks.map((task) => task.status?.state)).toEqual([TaskState.TASK_STATE_COMPLETED]);
    } finally {
      await server.stop();
    }
  });

  it('is refused as a main agent or a served one: it runs only as a sub-agent', async () => {
    const server = await serveOne('counter');
    try {
      await farDefinition(server);
      const script = await callerScript({ prompt: 'x' }, []);
      for (const args of [
        ['mcp', 'serve', '--agent', 'far', '--trust-project', '--model', `scripted:${script}`],
        callerFlags(script, '--agent', 'far', '--trust-project'),
      ]) {
        const run = await runWarren(args, { env: callerEnv(), cwd: caller, timeoutMs: 20_000 });
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(
          /^warren: --agent far: is a remote \(A2A\) agent, which runs only as a sub-agent/,
        );
      }
    } finally {
      await server.stop();
    }
  });

  it('is left out of an untrusted project, saying where it would have sent the work', async () => {
    const server = await serveOne('counter');
    try {
      await farDefinition(server);
      const script = await callerScript({ prompt: 'COUNT files' }, ['no far']);
      const run = await runWarren(callerFlags(script), { env: callerEnv(), cwd: caller });
      expect(run.stderr).toContain(
        `.gemini/agents/far.md kind would send agent "far"'s tasks over A2A to ${server.url}/.well-known/agent-card.json, authenticated with auth.type http`,
      );
      expect(run.code).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
