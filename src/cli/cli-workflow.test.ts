// `warren workflow run|resume` as a person runs it, against the loopback mock LLM: a 50-item
// workflow killed with SIGKILL at random moments and resumed until it ends (every item once, no
// completed item or side effect repeated), an edited script that re-runs only what changed, and
// a quota error that pauses the run with no request after it.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { jsonLines, runWarren, startWarren } from '../testing/cli-process.js';
import {
  type MockReply,
  type RecordedRequest,
  startMockLlmServer,
} from '../testing/mock-llm/server.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { WorkflowStore } from '../workflows/workflow-store.js';

let project: string;
let sessions: string;

beforeEach(async () => {
  project = await makeTempDir('warren-workflow-');
  sessions = join(project, '.sessions');
  await mkdir(join(project, 'side'));
});

const FLOW = `export const meta = { name: 'fifty', description: 'one agent per item, each with a side effect' };
phase('items');
export const result = await pipeline(args.items, (n) => agent('ITEM-' + n + '-END: record yourself', { label: 'item ' + n }));
`;

/** The model calls among the requests (not the model-list probe). */
const modelCalls = (requests: readonly RecordedRequest[]) =>
  requests.filter((request) => request.api);
/** The item a request belongs to (its agent's task names it), if any. */
const itemOf = (request: RecordedRequest) =>
  /ITEM-(\w+)-END/.exec(JSON.stringify(request.body))?.[1];
const hasToolResult = (request: RecordedRequest) =>
  ((request.body as { messages?: { role: string }[] }).messages ?? []).some(
    (message) => message.role === 'tool',
  );

/** An item's agent: one Bash call that appends to side/<n>, then its report. */
function itemReply(request: RecordedRequest, delayMs: number): MockReply | undefined {
  const item = itemOf(request);
  if (!item) return { text: 'not an item' };
  if (!hasToolResult(request)) {
    return {
      delayMs,
      toolCalls: [{ name: 'Bash', input: { command: `echo ${item} >> side/${item}` } }],
    };
  }
  // After a resume a call cut off without a result is "Interrupted": the agent does not repeat it.
  return { delayMs, text: `done ${item}` };
}

/** A loopback mock LLM for this test, closed when it ends: `reply` answers its model calls. */
async function mockLlm(
  reply: (request: RecordedRequest) => MockReply | undefined | Promise<MockReply | undefined>,
) {
  const server = await startMockLlmServer({
    handler: (request) => (request.api ? reply(request) : undefined),
  });
  onTestFinished(() => server.close());
  return server;
}

const mockFlags = (url: string) => [
  ...['--model', 'openai-compatible:test-model', '--base-url', `${url}/v1`],
  ...['--permission-mode', 'bypassPermissions', '--session-dir', sessions, '--max-parallel', '16'],
];
const env = () => ({ HOME: project });

/** `warren workflow run flow.js` over `items` against the mock, with its JSON summary. */
const runFlow = (url: string, items: string[], ...extra: string[]) =>
  runWarren(
    [
      'workflow',
      'run',
      'flow.js',
      '--args',
      JSON.stringify({ items }),
      '--output-format',
      'json',
      ...mockFlags(url),
      ...extra,
    ],
    { cwd: project, env: env() },
  );

/** A tiny seeded generator: a failing run names its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function completedItems(runId: string): Set<string> {
  const found = new Set<string>();
  for (const session of readdirSync(sessions)) {
    const store = WorkflowStore.read(join(sessions, session, 'tasks.db'));
    if (!store) continue;
    try {
      if (!store.run(runId)) continue;
      for (const item of store.items(runId))
        if (item.status === 'completed') found.add(item.label.slice('item '.length));
    } finally {
      store.close();
    }
  }
  return found;
}

describe('warren workflow run, killed with SIGKILL and resumed', () => {
  it('ends every item exactly once, never re-running a completed item or repeating a side effect', async () => {
    const seed = Number(process.env.WORKFLOW_CRASH_SEED ?? Date.now() % 100_000);
    const delays = random(seed);
    const killPoints = random(seed + 1);
    // Each process is killed on its Nth model call, not after a wall-clock wait: the moment is
    // random per seed but the same under any load, so a slow machine cannot finish the run first.
    let killOnCall = Infinity;
    const server = await mockLlm((request) => {
      if (modelCalls(server.requests).length >= killOnCall) {
        killOnCall = Infinity;
        running.child.kill('SIGKILL');
      }
      return itemReply(request, 20 + Math.floor(delays() * 80));
    });
    const items = Array.from({ length: 50 }, (_, index) => String(index + 1));
    await writeFile(join(project, 'flow.js'), FLOW);
    const flags = mockFlags(server.url);
    let running = startWarren(
      [
        'workflow',
        'run',
        'flow.js',
        '--args',
        JSON.stringify({ items }),
        '--output-format',
        'stream-json',
        ...flags,
      ],
      { cwd: project, env: env() },
    );
    await running.waitForLine((line) => line.type === 'workflow_start');
    const runId = String(running.lines.find((line) => line.type === 'workflow_start')!.runId);
    // Per process: no item that had completed when it started is asked about again.
    let doneAtStart = new Set<string>();
    let requestsAtStart = 0;
    const checkProcess = () => {
      const again = modelCalls(server.requests.slice(requestsAtStart))
        .map(itemOf)
        .filter((item) => item !== undefined && doneAtStart.has(item));
      expect(again, `seed ${seed}`).toEqual([]);
    };
    const kills = 3;
    let final: Awaited<typeof running.exited> | undefined;
    for (let attempt = 0; ; attempt++) {
      // 100 model calls in all: the first process always dies; later ones may finish first.
      if (attempt < kills) {
        killOnCall = modelCalls(server.requests).length + 5 + Math.floor(killPoints() * 25);
      }
      const ended = await running.exited;
      checkProcess();
      if (ended.code === 0 || attempt >= kills) {
        final = ended;
        // Killed mid-run at least once: the test proves nothing otherwise.
        expect(attempt, `seed ${seed}`).toBeGreaterThan(0);
        break;
      }
      doneAtStart = completedItems(runId);
      requestsAtStart = server.requests.length;
      running = startWarren(
        ['workflow', 'resume', runId, '--output-format', 'stream-json', ...flags],
        {
          cwd: project,
          env: env(),
        },
      );
      await running.waitForLine((line) => line.type === 'workflow_start');
    }
    expect(final?.code, `seed ${seed}: ${final?.stderr}`).toBe(0);
    const result = jsonLines(final!.stdout).find((line) => line.type === 'workflow_result')!;
    expect(result).toMatchObject({
      status: 'completed',
      items: { total: 50, completed: 50, failed: 0 },
    });
    const wrong = items.filter((item, index) => result.result[index] !== `done ${item}`);
    expect(
      result.result,
      `seed ${seed}: ${wrong.map((item) => `${item}: ${JSON.stringify(result.result[Number(item) - 1])}`).join('; ')}`,
    ).toEqual(items.map((item) => `done ${item}`));
    // Each side effect at most once: a Bash call whose result was on disk never ran again.
    for (const file of readdirSync(join(project, 'side'))) {
      expect(readFileSync(join(project, 'side', file), 'utf8'), `seed ${seed}: side/${file}`).toBe(
        `${file}\n`,
      );
    }
    expect(completedItems(runId).size).toBe(50);
  }, 120_000);
});

describe('warren workflow resume --script', () => {
  it('re-runs only the items the edited script changed', async () => {
    const server = await mockLlm((request) => itemReply(request, 1));
    await writeFile(join(project, 'flow.js'), FLOW);
    const flags = mockFlags(server.url);
    const items = ['a', 'b', 'c', 'd'];
    const first = await runFlow(server.url, items);
    expect(first.code, first.stderr).toBe(0);
    const { run_id: runId } = JSON.parse(first.stdout);
    const before = server.requests.length;
    await writeFile(
      join(project, 'edited.js'),
      FLOW.replace("'ITEM-' + n", "'ITEM-' + (n === 'c' ? 'C2' : n)"),
    );
    const second = await runWarren(
      ['workflow', 'resume', runId, '--script', 'edited.js', '--output-format', 'json', ...flags],
      {
        cwd: project,
        env: env(),
      },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(new Set(modelCalls(server.requests.slice(before)).map(itemOf))).toEqual(new Set(['C2']));
    expect(JSON.parse(second.stdout)).toMatchObject({
      status: 'completed',
      items: { from_journal: 3, launched: 1 },
    });
  }, 60_000);
});

describe('the circuit breaker', () => {
  it('pauses the run on a quota error, with no request after it, and exits 3', async () => {
    const server = await mockLlm((request) => {
      if (itemOf(request) === '3') {
        return {
          status: 429,
          errorMessage:
            'You exceeded your current quota, please check your plan and billing details. (insufficient_quota)',
        };
      }
      return itemReply(request, 1);
    });
    await writeFile(join(project, 'flow.js'), FLOW);
    const items = ['1', '2', '3', '4', '5', '6'];
    const run = await runFlow(server.url, items, '--max-parallel', '1');
    expect(run.code, run.stderr).toBe(3);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      status: 'paused',
      reason: expect.stringMatching(/quota or usage limit/),
    });
    const asked = modelCalls(server.requests).map(itemOf);
    const quota = asked.indexOf('3');
    // One request, not retried, and nothing after it.
    expect(asked.slice(quota)).toEqual(['3']);
    expect(asked).not.toContain('4');
    const listed = await runWarren(['workflows', '--json', '--session-dir', sessions], {
      cwd: project,
      env: env(),
    });
    expect(JSON.parse(listed.stdout).runs[0]).toMatchObject({
      run_id: result.run_id,
      status: 'paused',
    });
  }, 60_000);
});

describe('warren -p with the Workflow tool', () => {
  it('gives the model Workflow as a background task and prints its workflow_* events in stream-json', async () => {
    const script =
      "export const meta = { name: 'two', description: 'two items' };\nexport const result = await parallel(() => agent('ITEM-x-END'), () => agent('ITEM-y-END'));";
    await writeFile(
      join(project, 'model.yaml'),
      [
        'turns:',
        '  - match: { prompt: START }',
        '    tool_calls:',
        `      - { name: Workflow, input: { script: ${JSON.stringify(script)} } }`,
        '  - match: { prompt: ITEM-x-END }',
        '    text: X',
        '  - match: { prompt: ITEM-y-END }',
        '    text: Y',
        // The call returns the run's task at once; the summary comes as its notification.
        `  - match: { last_tool_result: '"run_id"' }`,
        '    text: WAITING',
        `  - match: { prompt: '<task-notification>' }`,
        '    text: FINAL',
        '',
      ].join('\n'),
    );
    const run = await runWarren(
      [
        '-p',
        'START',
        '--model',
        'scripted:model.yaml',
        '--output-format',
        'stream-json',
        '--session-dir',
        sessions,
      ],
      { cwd: project, env: env() },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(
      lines.filter((line) => String(line.type).startsWith('workflow_')).map((line) => line.type),
    ).toEqual([
      'workflow_start',
      'workflow_item',
      'workflow_item',
      'workflow_item',
      'workflow_item',
      'workflow_end',
    ]);
    expect(lines.find((line) => line.type === 'workflow_end')).toMatchObject({
      status: 'completed',
    });
    const workflowTask = lines.find(
      (line) => line.type === 'task_notification' && line.task_type === 'local_workflow',
    );
    expect(workflowTask).toMatchObject({ status: 'completed', description: 'workflow two' });
    const tasks = await runWarren(['tasks', '--session-dir', sessions], {
      cwd: project,
      env: env(),
    });
    expect(tasks.stdout).toMatch(
      /^task_\w+ +local_workflow +completed +2 items ended, \d+ tokens +workflow two /m,
    );
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'FINAL' });
  }, 60_000);
});

describe('resuming after the breaker', () => {
  it('goes on with an item it stopped mid-run in the same agent, without repeating its side effect', async () => {
    let refuse = true;
    let reportAsked!: () => void;
    const itemOneReporting = new Promise<void>((resolve) => {
      reportAsked = resolve;
    });
    const server = await mockLlm(async (request) => {
      const item = itemOf(request);
      if (item === 'bad' && refuse) {
        // The key is refused once item 1's Bash call is done and its report is being asked for.
        await itemOneReporting;
        return { status: 401, errorMessage: 'invalid x-api-key' };
      }
      if (item === 'bad') return { text: 'done bad' };
      if (item === '1' && hasToolResult(request) && refuse) {
        reportAsked();
        return { delayMs: 5000, text: 'too late' };
      }
      return itemReply(request, 1);
    });
    await writeFile(join(project, 'flow.js'), FLOW);
    const flags = mockFlags(server.url);
    const run = (args: string[]) =>
      runWarren([...args, '--output-format', 'stream-json', ...flags], {
        cwd: project,
        env: env(),
      });
    const summary = (stdout: string) =>
      jsonLines(stdout).find((line) => line.type === 'workflow_result')!;
    const paused = await run([
      'workflow',
      'run',
      'flow.js',
      '--args',
      JSON.stringify({ items: ['1', 'bad'] }),
    ]);
    expect(paused.code, paused.stderr).toBe(3);
    const runId = String(summary(paused.stdout).run_id);
    refuse = false;
    const before = server.requests.length;
    const resumed = await run(['workflow', 'resume', runId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(summary(resumed.stdout)).toMatchObject({
      status: 'completed',
      result: ['done 1', 'done bad'],
    });
    // Item 1 went on from its transcript (its Bash result in the request), and ran Bash once.
    const again = modelCalls(server.requests.slice(before)).filter(
      (request) => itemOf(request) === '1',
    );
    expect(again).toHaveLength(1);
    expect(hasToolResult(again[0]!)).toBe(true);
    expect(readFileSync(join(project, 'side', '1'), 'utf8')).toBe('1\n');
  }, 60_000);
});
