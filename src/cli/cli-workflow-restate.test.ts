// A workflow run kept in Restate (`--executor restate`): started in one session folder, killed
// with SIGKILL partway, resumed from a fresh folder (another machine's, as far as warren can
// tell) with the same restate URL and remote key. The loopback model's request log proves that
// items completed before the kill are not asked again; the record refuses callers without the key.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seal } from '../remote/signed-envelope.js';
import { RestateRecordClient } from '../remote/workflow-record-client.js';
import { jsonLines, runWarren, startWarren } from '../testing/cli-process.js';
import type { MockReply } from '../testing/mock-llm/server.js';
import { REMOTE_KEY, restateSuite, WORKER_KEY } from '../testing/restate/restate-world.js';

const suite = restateSuite('workflow-on-Restate CLI tests');

const FLOW = `export const meta = { name: 'spread', description: 'one agent per item, on workers' };
export const result = await pipeline(args.items, (n) => agent('WFR-' + n + '-END: report', { label: 'item ' + n }));
`;

const ITEMS = ['1', '2', '3', '4', '5', '6'];
/** Items that finish before the kill; the others are held until it. */
const EARLY = new Set(['1', '2', '3']);

/** `warren workflow …` flags against this world, its session folder `sessions`. */
function flags(sessions: string): string[] {
  const { world } = suite;
  return [
    ...['--model', 'openai-compatible:test-model', '--base-url', `${world.llm.url}/v1`],
    ...['--session-dir', sessions, '--permission-mode', 'bypassPermissions'],
    ...['--executor', 'restate', '--restate-url', world.server.ingressUrl],
    ...['--restate-admin-url', world.server.adminUrl, '--output-format', 'stream-json'],
  ];
}

/** A raw call of the record's handler through the ingress, as anyone on the network can make. */
async function callRecord(runId: string, handler: 'read' | 'write', body: unknown) {
  const response = await fetch(
    `${suite.world.server.ingressUrl}/workflowRecord/${runId}/${handler}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  return { status: response.status, text: await response.text() };
}

describe.skipIf(suite.skip)('a workflow run kept in Restate', () => {
  it('resumes from another session folder: items completed before a kill -9 are not run again', async () => {
    const { world } = suite;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    let heldAll: () => void = () => {};
    const allHeld = new Promise<void>((resolve) => {
      heldAll = resolve;
    });
    let killed = false;
    suite.script = async (turn): Promise<MockReply> => {
      const item = /WFR-(\w+)-END/.exec(turn.prompt)?.[1];
      if (!item) return { text: 'not an item' };
      if (!EARLY.has(item) && !killed) {
        held++;
        if (held === ITEMS.length - EARLY.size) heldAll();
        await released;
      }
      return { text: `done ${item}` };
    };
    await writeFile(join(world.project, 'flow.js'), FLOW);
    const first = startWarren(
      [
        'workflow',
        'run',
        'flow.js',
        '--args',
        JSON.stringify({ items: ITEMS }),
        ...flags(join(world.project, 'sessions-a')),
      ],
      { env: world.env(), cwd: world.project },
    );
    const completed = () =>
      first.lines.filter((line) => line.type === 'workflow_item' && line.status === 'completed');
    await first.waitForLine(() => completed().length === EARLY.size);
    await allHeld;
    const runId = String(first.lines.find((line) => line.type === 'workflow_start')?.runId);
    expect(runId).toMatch(/^wf_[0-9a-f]{8}$/);
    // The record names each running item's agent (written as it starts, not waited for).
    const client = new RestateRecordClient({
      ingressUrl: world.server.ingressUrl,
      auth: { keys: [REMOTE_KEY] },
    });
    const named = async () =>
      Object.values(await client.read(runId)).filter((text) => /"agentId":"[^"]+"/.test(text))
        .length;
    for (let tries = 0; tries < 200 && (await named()) < ITEMS.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    killed = true;
    // The children the kill cut off from their parent go on on the worker.
    release();

    // Another folder, as on another machine: nothing of the run is on its disk.
    const elsewhere = join(world.project, 'sessions-b');
    await mkdir(elsewhere);
    const resumed = await runWarren(['workflow', 'resume', runId, ...flags(elsewhere)], {
      cwd: world.project,
      env: world.env(),
      timeoutMs: 240_000,
    });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const summary = jsonLines(resumed.stdout).at(-1);
    expect(summary).toMatchObject({
      type: 'workflow_result',
      run_id: runId,
      status: 'completed',
      items: { total: 6, completed: 6, from_journal: 3 },
      result: ITEMS.map((item) => `done ${item}`),
    });
    // Each item was asked of the model once: those completed before the kill answer from the
    // record, and those cut off running were attached to on the worker, not started again.
    for (const item of ITEMS) expect(world.requestsOf(`WFR-${item}-END`)).toHaveLength(1);
    // Every item ran on the worker: its model calls carry the worker's own key.
    for (const turn of world.requestsOf('-END: report')) {
      expect(turn.request.headers.authorization).toBe(`Bearer ${WORKER_KEY}`);
    }

    // Without the remote key the record can be neither read nor written.
    const unsigned = await callRecord(runId, 'read', {});
    expect(unsigned.status).toBe(401);
    expect(unsigned.text).not.toContain('done 1');
    const forged = seal(
      { keys: ['wrk1_another-key-that-no-worker-accepts-at-all'] },
      'record-read',
      runId,
      '',
    );
    const wrongKey = await callRecord(runId, 'read', forged);
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.text).toContain('signature does not match');
    const overwrite = seal(
      { keys: ['wrk1_another-key-that-no-worker-accepts-at-all'] },
      'record-write',
      runId,
      JSON.stringify({ run: 'forged' }),
    );
    expect((await callRecord(runId, 'write', overwrite)).status).toBe(401);
    // A signed read presented as a write is refused too: the use is signed.
    const asWrite = await callRecord(
      runId,
      'write',
      seal({ keys: [REMOTE_KEY] }, 'record-read', runId, JSON.stringify({ run: 'forged' })),
    );
    expect(asWrite.status).toBe(401);
    expect(asWrite.text).toContain('sealed for another use');
    // With the key, what Restate holds is ciphertext: no result, prompt or script in the clear.
    const read = await callRecord(
      runId,
      'read',
      seal({ keys: [REMOTE_KEY] }, 'record-read', runId, ''),
    );
    expect(read.status).toBe(200);
    const entries = JSON.parse(read.text) as Record<string, string>;
    expect(Object.keys(entries)).toContain('run');
    expect(Object.keys(entries).filter((name) => name.startsWith('item:'))).toHaveLength(6);
    for (const value of Object.values(entries)) expect(value).toMatch(/^warren-record-v1:/);
    expect(read.text).not.toContain('done 1');
    expect(read.text).not.toContain('pipeline');
    expect(read.text).not.toContain(REMOTE_KEY);
  }, 300_000);

  it('keeps the record of a run the model starts with the Workflow tool in `warren -p --executor restate`', async () => {
    const { world } = suite;
    const script = `export const meta = { name: 'pair', description: 'two agents' };
export const result = await parallel(() => agent('WFP-a-END go'), () => agent('WFP-b-END go'));`;
    suite.script = (turn): MockReply => {
      const item = /WFP-(\w+)-END/.exec(turn.prompt)?.[1];
      if (item) return { text: `pair ${item}` };
      if (turn.turn === 0) return { toolCalls: [{ name: 'Workflow', input: { script } }] };
      if (turn.last.includes('task-notification')) return { text: 'PARENT-WFP saw the end' };
      return { text: 'waiting' };
    };
    const run = await runWarren(
      ['-p', 'PARENT-WFP go', ...flags(join(world.project, 'sessions-p'))],
      {
        cwd: world.project,
        env: world.env(),
        timeoutMs: 240_000,
      },
    );
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'PARENT-WFP saw the end' });
    const runId = String(lines.find((line) => line.type === 'workflow_start')?.runId);
    const record = await new RestateRecordClient({
      ingressUrl: world.server.ingressUrl,
      auth: { keys: [REMOTE_KEY] },
    }).read(runId);
    expect(JSON.parse(record.run!)).toMatchObject({
      name: 'pair',
      status: 'completed',
      taskId: null,
    });
    const items = Object.entries(record)
      .filter(([name]) => name.startsWith('item:'))
      .map(([, text]) => JSON.parse(text) as { status: string; result: string });
    expect(items.map((item) => [item.status, item.result]).sort()).toEqual([
      ['completed', JSON.stringify('pair a')],
      ['completed', JSON.stringify('pair b')],
    ]);
  }, 300_000);

  it('says where it looked when neither the session folder nor Restate holds the run', async () => {
    const { world } = suite;
    const run = await runWarren(
      ['workflow', 'resume', 'wf_0badc0de', ...flags(join(world.project, 'sessions-none'))],
      { cwd: world.project, env: world.env() },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('wf_0badc0de');
    expect(run.stderr).toContain(`nor in Restate at ${world.server.ingressUrl}`);
    expect(run.stderr).not.toContain(REMOTE_KEY);
  }, 120_000);
});
