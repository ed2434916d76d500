// A task cut by a restart of `warren a2a serve` (killed outright, then started again on its task
// folder): the new server goes on with it in the session it left, so a client's GetTask sees it
// working and its resubscription sees it end; a parent's `kind: remote` child re-attaches by the
// task's id and gets the result, without sending the work twice.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { sendTextRequest } from '../a2a/a2a-parts.js';
import { bearerA2aClient } from '../testing/a2a-client.js';
import { homeEnv, startWarren } from '../testing/cli-process.js';
import {
  type ServedProject,
  type ServingWarren,
  servedProject,
  serveWarren,
  writeRemoteDefinition,
} from '../testing/served-project.js';
import { makeTempDir } from '../testing/temp-dir.js';

const TOKEN = 'restart-token';
let project: ServedProject;

beforeEach(async () => {
  project = await servedProject();
  await writeFile(join(project.home, 'token'), `${TOKEN}\n`);
});

const serve = (port = '0') =>
  serveWarren(project, [
    'a2a',
    'serve',
    '--port',
    port,
    '--agent',
    'pause',
    '--token-file',
    join(project.home, 'token'),
  ]);

/** The id of the task whose run's session is on disk, once the server has recorded one. */
async function recordedTask(): Promise<string> {
  const dir = join(project.sessionDir, 'a2a-tasks');
  for (;;) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {}
    for (const name of names) {
      try {
        const task = JSON.parse(readFileSync(join(dir, name), 'utf8'));
        if (typeof task.metadata?.['warren/session'] === 'string') return task.id;
      } catch {}
    }
    await delay(50);
  }
}

const textOf = (parts: { content?: { $case: string; value?: unknown } }[] | undefined) =>
  (parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? String(part.content.value) : ''))
    .join('');

describe('a task cut by a restart of warren a2a serve', () => {
  it('goes on after the restart: GetTask says working, and a resubscription sees it complete', async () => {
    const first = await serve();
    const client = await bearerA2aClient(first.url, TOKEN);
    const stream = client.sendMessageStream(sendTextRequest('PAUSE a while', {}));
    // The stream is read (and breaks) while the server dies.
    const reading = (async () => {
      for await (const _ of stream);
    })().catch(() => {});
    const taskId = await recordedTask();
    await first.crash();
    await reading;

    const second = await serve();
    try {
      const again = await bearerA2aClient(second.url, TOKEN);
      const task = await again.getTask({ tenant: '', id: taskId });
      expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      const events: StreamResponse[] = [];
      for await (const event of again.resubscribeTask({ tenant: '', id: taskId }))
        events.push(event);
      const ended = await again.getTask({ tenant: '', id: taskId });
      expect(ended.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(textOf(ended.artifacts[0]?.parts)).toBe('resumed and done');
      expect(
        events.some(
          (event) =>
            event.payload?.$case === 'statusUpdate' &&
            event.payload.value.status?.state === TaskState.TASK_STATE_COMPLETED,
        ),
      ).toBe(true);
      // It went on in the session it had: the original prompt, then the note, in one transcript.
      const transcripts = readdirSync(project.sessionDir)
        .filter((name) => name.endsWith('.jsonl'))
        .map((name) => readFileSync(join(project.sessionDir, name), 'utf8'))
        .filter((text) => text.includes('PAUSE a while'));
      expect(transcripts).toHaveLength(1);
      expect(transcripts[0]!.indexOf('PAUSE a while')).toBeLessThan(
        transcripts[0]!.indexOf('server running this task restarted'),
      );
    } finally {
      await second.stop();
    }
  });

  it("lets a parent's kind: remote child re-attach by task id and get the result", async () => {
    const first = await serve();
    const port = new URL(first.url).port;
    const caller = await makeTempDir('warren-a2a-restart-caller-');
    const home = await makeTempDir('warren-a2a-restart-home-');
    await writeRemoteDefinition(caller, '.warren/agents', first.url, TOKEN);
    const script = join(caller, 'script.json');
    const turns = [
      {
        match: { agent: '/^main$/' },
        tool_calls: [
          {
            name: 'Agent',
            input: { description: 'far work', subagent_type: 'far', prompt: 'PAUSE please' },
          },
        ],
      },
      // Only the remote result lets the parent say this.
      {
        match: { agent: '/^main$/', lastToolResult: 'resumed and done' },
        text: 'the parent is done',
      },
    ];
    await writeFile(script, JSON.stringify({ turns }));
    const parent = startWarren(
      ['-p', 'go', '--model', `scripted:${script}`, '--trust-project', '--output-format', 'json'],
      { env: { ...homeEnv(home) }, cwd: caller },
    );
    let second: ServingWarren | undefined;
    try {
      await recordedTask();
      await first.crash();
      second = await serve(port);
      const run = await parent.exited;
      expect(run.stderr).toBe('');
      expect(run.code, run.stdout).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.result).toBe('the parent is done');
      const far = result.agents.find((agent: { agent_type: string }) => agent.agent_type === 'far');
      expect(far).toMatchObject({ status: 'completed' });
      // The work was not sent twice: the server has the one task.
      const tasks = readdirSync(join(project.sessionDir, 'a2a-tasks'));
      expect(tasks.filter((name) => name.endsWith('.json'))).toHaveLength(1);
    } finally {
      await second?.stop();
    }
  });
});
