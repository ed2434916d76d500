// A workflow started by the model with the Workflow tool (`warren -p`, a background task) when
// warren is killed with SIGKILL: `--resume` of the session restarts the items that were running
// from their transcripts and ends the run's task saying how to go on with the run; `warren
// workflow resume <run>` then finishes it, the completed items returned from the journal.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { runWarren, startWarren } from '../testing/cli-process.js';
import { type RecordedRequest, startMockLlmServer } from '../testing/mock-llm/server.js';
import { makeTempDir } from '../testing/temp-dir.js';

let project: string;
let sessions: string;

beforeEach(async () => {
  project = await makeTempDir('warren-workflow-crash-');
  sessions = join(project, '.sessions');
  await mkdir(sessions);
});

const FLOW = `export const meta = { name: 'three', description: 'three items' };
export const result = await pipeline(args.items, (n) => agent('ITEM-' + n + '-END', { label: 'item ' + n }));`;

type Message = { role: string; content?: unknown };
const messagesOf = (request: RecordedRequest) =>
  (request.body as { messages?: Message[] }).messages ?? [];
/** The item a request is for: its agent's first user message names it. */
const itemOf = (request: RecordedRequest) => {
  const first = messagesOf(request).find((message) => message.role === 'user');
  return /ITEM-(\w+)-END/.exec(JSON.stringify(first?.content ?? ''))?.[1];
};

describe('a Workflow call cut by kill -9, then --resume', () => {
  it("ends the run's task saying how to resume it, and warren workflow resume finishes it from its journal", async () => {
    let hangItemThree = true;
    const server = await startMockLlmServer({
      handler: (request) => {
        if (!request.api) return undefined;
        const item = itemOf(request);
        if (item === '3' && hangItemThree) return { delayMs: 600_000, text: 'never' };
        if (item) return { text: `done ${item}` };
        const called = messagesOf(request).some((message) => message.role === 'tool');
        if (called) return { text: 'NOTED' };
        return {
          toolCalls: [
            { name: 'Workflow', input: { script: FLOW, args: { items: ['1', '2', '3'] } } },
          ],
        };
      },
    });
    onTestFinished(() => server.close());
    const flags = [
      ...['--model', 'openai-compatible:test-model', '--base-url', `${server.url}/v1`],
      ...['--permission-mode', 'bypassPermissions', '--session-dir', sessions],
    ];
    const env = { HOME: project };
    const running = startWarren(['-p', 'START', '--output-format', 'stream-json', ...flags], {
      cwd: project,
      env,
    });
    const completed = () =>
      running.lines.filter((line) => line.type === 'workflow_item' && line.status === 'completed');
    await running.waitForLine(() => completed().length === 2);
    const runId = String(running.lines.find((line) => line.type === 'workflow_start')!.runId);
    const sessionId = String(running.lines.find((line) => line.session_id)!.session_id);
    running.child.kill('SIGKILL');
    await running.exited;

    hangItemThree = false;
    const atResume = server.requests.length;
    const resumed = await runWarren(
      ['-p', 'Go on.', '--resume', sessionId, '--output-format', 'json', ...flags],
      { cwd: project, env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    // The model reads what to do with the run: its notification names the way to resume it.
    const told = server.requests
      .slice(atResume)
      .some((request) => JSON.stringify(request.body).includes(`warren workflow resume ${runId}`));
    expect(told).toBe(true);
    const tasks = await runWarren(['tasks', '--json', '--session-dir', sessions], {
      cwd: project,
      env,
    });
    const listed = JSON.parse(tasks.stdout) as { tasks: Array<Record<string, unknown>> };
    const workflowTask = listed.tasks.find((task) => task.kind === 'local_workflow');
    expect(workflowTask).toMatchObject({
      status: 'failed',
      error: expect.stringContaining(`resumeFromRunId: "${runId}"`),
    });

    const finished = await runWarren(
      ['workflow', 'resume', runId, '--output-format', 'json', ...flags],
      { cwd: project, env },
    );
    expect(finished.code, finished.stderr).toBe(0);
    expect(JSON.parse(finished.stdout)).toMatchObject({
      status: 'completed',
      items: { total: 3, completed: 3, failed: 0 },
      result: ['done 1', 'done 2', 'done 3'],
    });
    // Nothing completed before the crash is asked for again, by the resume or by the run.
    const askedAgain = server.requests
      .slice(atResume)
      .map(itemOf)
      .filter((item) => item === '1' || item === '2');
    expect(askedAgain).toEqual([]);
  }, 60_000);
});
