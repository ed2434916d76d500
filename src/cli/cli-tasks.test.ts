// Background work through the real `warren` command: stream-json task lines, the JSON agents
// array, `warren tasks`, a stalled child, and a run killed with SIGKILL mid-child, then resumed.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonLines, runWarren, startWarren } from '../testing/cli-process.js';
import { makeTempDir } from '../testing/temp-dir.js';

let project: string;
let sessions: string;

beforeEach(async () => {
  project = await makeTempDir('warren-tasks-');
  sessions = join(project, '.sessions');
});

const env = () => ({ HOME: project });

/** `warren <args>` in the project, its sessions kept there. */
const warren = (args: string[]) =>
  runWarren([...args, '--session-dir', sessions], { cwd: project, env: env() });

async function script(name: string, yaml: string): Promise<string> {
  await writeFile(join(project, name), yaml);
  return `scripted:${name}`;
}

const BACKGROUND_SCRIPT = `
turns:
  - match: { prompt: START }
    tool_calls:
      - name: Agent
        input: { description: find notes, prompt: "BG find the notes", run_in_background: true }
  - match: { prompt: "BG find" }
    delay_ms: 50
    text: "The notes are in notes.txt."
  - match: { last_tool_result: '"task_id"' }
    text: "Waiting for it."
  - match: { prompt: "<task-notification>" }
    text: "FINAL: notes.txt"
`;

describe('warren -p with background work', () => {
  it('prints task_started and task_notification lines and waits for the task', async () => {
    const model = await script('bg.yaml', BACKGROUND_SCRIPT);
    const run = await warren(['-p', 'START', '--model', model, '--output-format', 'stream-json']);
    expect(run.code).toBe(0);
    const output = jsonLines(run.stdout);
    const init = output[0]!;
    const started = output.find((line) => line.type === 'task_started')!;
    const notified = output.find((line) => line.type === 'task_notification')!;
    expect(started).toMatchObject({
      agent_id: init.agent_id,
      depth: 0,
      task_type: 'local_agent',
      description: 'find notes',
      status: 'running',
    });
    expect(notified).toMatchObject({
      task_id: started.task_id,
      task_agent_id: started.task_agent_id,
      status: 'completed',
      agent_status: 'completed',
      result: 'The notes are in notes.txt.',
    });
    expect(output.indexOf(notified)).toBeLessThan(output.length - 2);
    expect(output.at(-1)).toMatchObject({ type: 'result', result: 'FINAL: notes.txt' });
  });

  it('marks background agents in the JSON agents array, and lists the task with warren tasks', async () => {
    const model = await script('bg.yaml', BACKGROUND_SCRIPT);
    const run = await warren(['-p', 'START', '--model', model, '--output-format', 'json']);
    const result = JSON.parse(run.stdout);
    const [main, child] = result.agents;
    expect(main).toMatchObject({ background: false, task_id: null });
    expect(child).toMatchObject({
      background: true,
      task_id: expect.stringMatching(/^task_/),
      status: 'completed',
    });

    const listing = await warren(['tasks', '--json']);
    expect(listing.code).toBe(0);
    const { session_id, tasks } = JSON.parse(listing.stdout);
    expect(session_id).toBe(result.session_id);
    expect(tasks).toEqual([
      expect.objectContaining({
        task_id: child.task_id,
        kind: 'local_agent',
        status: 'completed',
        description: 'find notes',
        agent_id: child.agent_id,
        result: 'The notes are in notes.txt.',
        result_path: child.transcript,
        notified_at: expect.any(String),
        progress: expect.objectContaining({ turns: 1, tool_calls: 0 }),
      }),
    ]);
    const text = await warren(['tasks', '--session', result.session_id]);
    expect(text.stdout).toMatch(
      new RegExp(
        `^${child.task_id} +local_agent +completed +1 turns, 0 tools, \\d+ tokens +find notes +${child.transcript}$`,
        'm',
      ),
    );
  });

  it('says which session it looked in when there are no tasks', async () => {
    const run = await warren(['tasks']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^warren: --session-dir: no session in .* has background tasks/);
  });

  it('stops a child whose model hangs as stalled; the parent gets its partial output', async () => {
    const model = await script(
      'stall.yaml',
      `
turns:
  - match: { prompt: START }
    tool_calls:
      - name: Agent
        input: { description: hangs, prompt: "HANG here" }
  - match: { prompt: HANG }
    delay_ms: 60000
    text: never
  - match: { last_tool_result: stalled }
    text: "The helper stalled."
`,
    );
    const run = await warren([
      '-p',
      'START',
      '--model',
      model,
      '--output-format',
      'json',
      '--stall-timeout',
      '200',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.result).toBe('The helper stalled.');
    expect(result.agents[1]).toMatchObject({ status: 'stalled' });
  });
});

describe('--resume after warren was killed with SIGKILL mid-child', () => {
  it('restarts the child from its transcript: no finished call runs again, one notification', async () => {
    const model = await script(
      'crash.yaml',
      `
turns:
  - match: { prompt: START }
    tool_calls:
      - name: Agent
        input: { description: counter, prompt: "CHILD-TASK count once", run_in_background: true }
  - match: { prompt: "CHILD-TASK" }
    tool_calls:
      - name: Bash
        input: { command: "echo ran >> counter.txt" }
  - match: { prompt: "stopped unexpectedly" }
    text: "CHILD-DONE after the restart"
  - match: { prompt: "CHILD-TASK", last_tool_result: "(no output)" }
    delay_ms: 60000
    text: never
  - match: { last_tool_result: '"task_id"' }
    text: "Waiting for the counter."
  - match: { prompt: "continue" }
    text: "Still waiting."
  - match: { prompt: "<task-notification>" }
    text: "FINAL: the child said CHILD-DONE"
`,
    );
    const flags = ['--model', model, '--permission-mode', 'bypassPermissions'];
    const first = startWarren(
      ['-p', 'START', ...flags, '--session-dir', sessions, '--output-format', 'stream-json'],
      { cwd: project, env: env() },
    );
    await first.waitForLine((line) => line.type === 'tool_result' && line.tool_name === 'Bash');
    const init = first.lines[0] as { session_id: string };
    // The child's tool result is on disk and its next model call hangs: kill it there.
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.child.kill('SIGKILL');
    expect((await first.exited).code).toBe(null);
    expect(readFileSync(join(project, 'counter.txt'), 'utf8')).toBe('ran\n');
    const before = await warren(['tasks', '--session', init.session_id, '--json']);
    expect(JSON.parse(before.stdout).tasks[0]).toMatchObject({ status: 'running', attempt: 1 });

    const resumed = await warren([
      '-p',
      'continue',
      '--resume',
      init.session_id,
      ...flags,
      '--output-format',
      'json',
    ]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).result).toBe('FINAL: the child said CHILD-DONE');
    // The Bash call had its result on disk: it did not run again.
    expect(readFileSync(join(project, 'counter.txt'), 'utf8')).toBe('ran\n');
    const { tasks } = JSON.parse(
      (await warren(['tasks', '--session', init.session_id, '--json'])).stdout,
    );
    expect(tasks[0]).toMatchObject({
      status: 'completed',
      attempt: 2,
      result: 'CHILD-DONE after the restart',
      notified_at: expect.any(String),
    });
    const transcript = readFileSync(join(sessions, `${init.session_id}.jsonl`), 'utf8');
    const delivered = transcript.match(new RegExp(`<task-id>${tasks[0].task_id}</task-id>`, 'g'));
    expect(delivered).toHaveLength(1);
    expect(existsSync(join(sessions, init.session_id, 'tasks.db'))).toBe(true);
  });
});
