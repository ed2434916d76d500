// Background work through the real `warren` command: stream-json task lines, the JSON agents
// array, `warren tasks`, a stalled child, and a run killed with SIGKILL mid-child (one in its own
// worktree too, one with a message it had not read yet), then resumed.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { taskStorePath } from '../session/session-paths.js';
import { newTaskRecord } from '../tasks/task-record.js';
import { TaskStore } from '../tasks/task-store.js';
import { jsonLines, runWarren, startWarren } from '../testing/cli-process.js';
import { gitIn, makeGitRepo } from '../testing/git-repo.js';
import {
  type MockReply,
  type RecordedRequest,
  startMockLlmServer,
} from '../testing/mock-llm/server.js';
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

  it('shows a task waiting on a permission answer as blocked, and a looping one as no_progress', async () => {
    const store = TaskStore.open(taskStorePath(sessions, 'session-1'));
    const task = (taskId: string, description: string) => ({
      ...newTaskRecord({
        kind: 'local_agent',
        agentId: `agent_${taskId}`,
        owner: { agentId: 'main', parentId: null, depth: 0 },
        agentType: 'general-purpose',
        description,
        spec: { agentType: 'general-purpose', prompt: description },
      }),
      taskId,
    });
    store.insert(task('task_a', 'writes the file'));
    store.markRunning('task_a', 1000, null);
    const progress = {
      turns: 1,
      toolCalls: 1,
      tokens: 10,
      lastActivityAt: 1000,
      lastToolName: 'Write',
    };
    store.saveProgress('task_a', { ...progress, blockedOn: 'permission to use Write' });
    store.insert(task('task_b', 'goes round'));
    store.finish(
      'task_b',
      {
        status: 'failed',
        result: '',
        error: 'No progress: the same tool calls (Echo) with the same results 4 times in a row.',
        agentStatus: 'no_progress',
        usage: null,
        costUsd: null,
        resultPath: null,
      },
      2000,
    );
    store.close();
    const text = await warren(['tasks']);
    expect(text.stdout).toMatch(/^task_a +local_agent +blocked \(permission to use Write\) /m);
    expect(text.stdout).toMatch(/^task_b +local_agent +failed \(no_progress\) /m);
    const { tasks } = JSON.parse((await warren(['tasks', '--json'])).stdout);
    expect(tasks[0]).toMatchObject({
      status: 'blocked',
      progress: { blocked_on: 'permission to use Write' },
    });
    expect(tasks[1]).toMatchObject({ status: 'failed', agent_status: 'no_progress' });
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

/**
 * The end of a crash script: the child's call after its Bash result hangs (the kill comes
 * there), and the main agent waits, then reports what the child said.
 */
const crashTail = (task: string, said: string) => `
  - match: { prompt: "${task}", last_tool_result: "(no output)" }
    delay_ms: 60000
    text: never
  - match: { last_tool_result: '"task_id"' }
    text: "Waiting for the counter."
  - match: { prompt: "continue" }
    text: "Still waiting."
  - match: { prompt: "<task-notification>" }
    text: "FINAL: the child said ${said}"
`;

/**
 * `warren -p START` killed with SIGKILL once the result of a `tool` call is on disk (by default a
 * child's Bash, whose next model call hangs); returns the session id.
 */
async function killedMidChild(flags: string[], tool = 'Bash'): Promise<string> {
  const first = startWarren(
    ['-p', 'START', ...flags, '--session-dir', sessions, '--output-format', 'stream-json'],
    { cwd: project, env: env() },
  );
  await first.waitForLine((line) => line.type === 'tool_result' && line.tool_name === tool);
  const init = first.lines[0] as { session_id: string };
  await new Promise((resolve) => setTimeout(resolve, 200));
  first.child.kill('SIGKILL');
  expect((await first.exited).code).toBe(null);
  return init.session_id;
}

const resumeCrashed = (sessionId: string, flags: string[]) =>
  warren(['-p', 'continue', '--resume', sessionId, ...flags, '--output-format', 'json']);

const tasksOf = async (sessionId: string) =>
  JSON.parse((await warren(['tasks', '--session', sessionId, '--json'])).stdout).tasks;

/** How often the main transcript delivered the notification of `taskId`. */
function deliveries(sessionId: string, taskId: string): number {
  const transcript = readFileSync(join(sessions, `${sessionId}.jsonl`), 'utf8');
  return transcript.match(new RegExp(`<task-id>${taskId}</task-id>`, 'g'))?.length ?? 0;
}

/** The restarted task completed in its second attempt and was delivered once; returns its row. */
async function finishedAfterRestart(sessionId: string) {
  const [task] = await tasksOf(sessionId);
  expect(task).toMatchObject({ status: 'completed', attempt: 2, notified_at: expect.any(String) });
  expect(deliveries(sessionId, task.task_id)).toBe(1);
  return task;
}

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
${crashTail('CHILD-TASK', 'CHILD-DONE')}
`,
    );
    const flags = ['--model', model, '--permission-mode', 'bypassPermissions'];
    const sessionId = await killedMidChild(flags);
    expect(readFileSync(join(project, 'counter.txt'), 'utf8')).toBe('ran\n');
    expect((await tasksOf(sessionId))[0]).toMatchObject({ status: 'running', attempt: 1 });

    const resumed = await resumeCrashed(sessionId, flags);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).result).toBe('FINAL: the child said CHILD-DONE');
    // The Bash call had its result on disk: it did not run again.
    expect(readFileSync(join(project, 'counter.txt'), 'utf8')).toBe('ran\n');
    const task = await finishedAfterRestart(sessionId);
    expect(task.result).toBe('CHILD-DONE after the restart');
    expect(existsSync(join(sessions, sessionId, 'tasks.db'))).toBe(true);
  });

  it('restarts a child in its own worktree there: its work is committed to its branch, kept', async () => {
    makeGitRepo(project);
    const model = await script(
      'crash-wt.yaml',
      `
turns:
  - match: { prompt: START }
    tool_calls:
      - name: Agent
        input:
          description: worktree counter
          prompt: "WT-TASK count once"
          run_in_background: true
          isolation: worktree
  - match: { prompt: "WT-TASK" }
    tool_calls:
      - name: Bash
        input: { command: "echo ran >> counter.txt" }
  - match: { prompt: "stopped unexpectedly", last_tool_result: ".warren/worktrees/" }
    text: "WT-DONE after the restart"
  - match: { prompt: "stopped unexpectedly" }
    tool_calls:
      - name: Bash
        input: { command: "pwd" }
${crashTail('WT-TASK', 'WT-DONE')}
`,
    );
    const flags = ['--model', model, '--permission-mode', 'bypassPermissions'];
    const sessionId = await killedMidChild(flags);
    const [{ agent_id: agentId }] = await tasksOf(sessionId);
    const worktree = join(project, '.warren', 'worktrees', agentId);
    expect(readFileSync(join(worktree, 'counter.txt'), 'utf8')).toBe('ran\n');
    expect(existsSync(join(project, 'counter.txt'))).toBe(false);

    const resumed = await resumeCrashed(sessionId, flags);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).result).toBe('FINAL: the child said WT-DONE');
    // The Bash call had its result on disk: not run again; the restarted child ran in the worktree.
    expect(readFileSync(join(worktree, 'counter.txt'), 'utf8')).toBe('ran\n');
    const task = await finishedAfterRestart(sessionId);
    expect(task.result).toContain('WT-DONE after the restart');
    expect(task.result).toContain(
      `[Worktree kept: the agent's changes are on branch warren/${agentId}`,
    );
    // Committed to its branch, the worktree kept and clean, its lock off.
    expect(gitIn(project, 'show', `warren/${agentId}:counter.txt`)).toBe('ran');
    expect(gitIn(worktree, 'status', '--porcelain')).toBe('');
    expect(gitIn(project, 'worktree', 'list', '--porcelain')).not.toContain('locked');
  });

  it('gives a restarted child the message it had not read yet, once', async () => {
    let childWaits: () => void = () => {};
    const waiting = new Promise<void>((resolve) => {
      childWaits = resolve;
    });
    const messagesOf = (request: RecordedRequest) =>
      (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const isChild = (request: RecordedRequest) =>
      JSON.stringify(messagesOf(request).find((message) => message.role === 'user')).includes(
        'WAITER-TASK',
      );
    // The child waits in Bash for a file; the main agent messages it only once it waits there.
    const reply = async (request: RecordedRequest): Promise<MockReply> => {
      const messages = messagesOf(request);
      const text = (at: number) => JSON.stringify(messages.at(at)?.content ?? '');
      if (isChild(request)) {
        if (JSON.stringify(messages).includes('stopped unexpectedly')) return { text: 'WAITED' };
        if (messages.some((message) => message.role === 'tool')) return { text: 'too early' };
        childWaits();
        const command = 'while [ ! -f go ]; do sleep 0.05; done';
        return { toolCalls: [{ name: 'Bash', input: { command } }] };
      }
      if (text(-1).includes('<task-notification>')) return { text: 'FINAL: the waiter is done' };
      if (text(-1).includes('Delivered to')) return { text: 'Waiting for the waiter.' };
      if (text(-1).includes('task_id')) {
        await waiting;
        const message = 'NOTE-FOR-WAITER: count the notes too';
        return { toolCalls: [{ name: 'SendMessage', input: { to: 'waiter', message } }] };
      }
      if (text(-1).includes('START')) {
        const input = {
          description: 'waiter',
          name: 'waiter',
          prompt: 'WAITER-TASK wait for the go file',
          run_in_background: true,
        };
        return { toolCalls: [{ name: 'Agent', input }] };
      }
      return { text: 'Still waiting.' };
    };
    const server = await startMockLlmServer({
      handler: (request) => (request.api ? reply(request) : undefined),
    });
    try {
      const flags = [
        ...['--model', 'openai-compatible:test-model', '--base-url', `${server.url}/v1`],
        ...['--permission-mode', 'bypassPermissions'],
      ];
      const childRequests = () =>
        server.requests
          .filter((request) => request.api && isChild(request))
          .map((request) => JSON.stringify(request.body));
      const sessionId = await killedMidChild(flags, 'SendMessage');
      // Killed after SendMessage said delivered (on disk), while the child still waited.
      const mainTranscript = readFileSync(join(sessions, `${sessionId}.jsonl`), 'utf8');
      expect(mainTranscript).toContain('"toolName":"SendMessage","output":"Delivered to ');
      expect(childRequests()).toHaveLength(1);
      expect(childRequests()[0]).not.toContain('NOTE-FOR-WAITER');
      await writeFile(join(project, 'go'), '');

      const resumed = await resumeCrashed(sessionId, flags);
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout).result).toBe('FINAL: the waiter is done');
      const [, ...after] = childRequests();
      expect(after).toHaveLength(1);
      expect(after[0]).toContain('stopped unexpectedly');
      expect(after[0]!.match(/NOTE-FOR-WAITER/g)).toHaveLength(1);
      expect((await finishedAfterRestart(sessionId)).result).toBe('WAITED');
    } finally {
      // The killed run's Bash call outlives it until the file is there.
      await writeFile(join(project, 'go'), '');
      await server.close();
    }
  });
});
