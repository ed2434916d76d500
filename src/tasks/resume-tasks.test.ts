// Resuming background work after a crash, through query(): a crashed child restarts from its
// sidechain (in its worktree, taken up again; failed, if that is gone), a read-only call cut off
// runs again, one that changes things is reported interrupted, and main is notified once.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reopenChildWorktree } from '../agents/child-worktree.js';
import type { AgentEvent } from '../core/events.js';
import type { TaskControl, TaskExecutor, TaskOutcome, TaskRecord } from '../core/tasks.js';
import { createWorktree } from '../isolation/create-worktree.js';
import { scriptedModel } from '../model/scripted-model.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { query } from '../query.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../session/read-transcript.js';
import { TranscriptWriter } from '../session/transcript-writer.js';
import { gitIn, makeGitRepo, writeFiles } from '../testing/git-repo.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { RESUMED_PROMPT } from './resume-tasks.js';
import { TaskManager } from './task-manager.js';
import { TaskStore } from './task-store.js';

/** An executor whose tasks never end: the process "dies" with them running. */
const neverEnding: TaskExecutor<null> = {
  kind: 'local_agent',
  start: (_taskId: string, _spec: null, control: TaskControl) => control.running(),
  status: async () => 'running',
  stop: () => {},
  result: () => new Promise<TaskOutcome>(() => {}),
  output: () => '',
};

/**
 * A general-purpose background child of `main_old`, running in the store at `storePath` when
 * the process died: its row says running, and nothing ever ended it.
 */
function runningAtCrash(
  storePath: string,
  child: { agentId: string; description: string; spec: Record<string, unknown> },
): TaskRecord {
  const crashed = new TaskManager({ store: TaskStore.open(storePath) });
  const task = crashed.start(neverEnding, null, {
    kind: 'local_agent',
    description: child.description,
    owner: { agentId: 'main_old', parentId: null, depth: 0 },
    agentId: child.agentId,
    agentType: 'general-purpose',
    spec: { agentType: 'general-purpose', ...child.spec },
  });
  crashed.store.close();
  return task;
}

/** The worktree a crashed child `agent_wt1` of `main_old` worked in. */
const WT_REQUEST = {
  agentId: 'agent_wt1',
  parentId: 'main_old',
  agentType: 'general-purpose',
  description: 'change it',
};

describe('resumeTasks', () => {
  it('restarts a crashed child from its sidechain, re-running only what changes nothing', async () => {
    const cwd = await makeTempDir();
    const sessionDir = join(cwd, 'sessions');
    await writeFile(join(cwd, 'notes.txt'), 'NOTES-CONTENT');
    const storePath = join(sessionDir, 's1', 'tasks.db');

    // The first run: a background child made two calls, then the process was killed.
    const task = runningAtCrash(storePath, {
      agentId: 'agent_crashed1',
      description: 'read and write',
      spec: { prompt: 'CRASHED task' },
    });
    const before = new TranscriptWriter({
      sessionDir,
      sessionId: 's1',
      mainAgentId: 'main_old',
      env: {},
    });
    const child = { agentId: 'agent_crashed1', parentId: 'main_old', depth: 1 };
    for (const message of [
      { role: 'system', content: 'You are a sub-agent.' },
      { role: 'user', content: 'CRASHED task' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'r1',
            toolName: 'Read',
            input: { file_path: 'notes.txt' },
          },
          {
            type: 'tool-call',
            toolCallId: 'w1',
            toolName: 'Write',
            input: { file_path: 'x', content: 'x' },
          },
        ],
      },
    ] as const) {
      before.write({ ...child, type: 'message_end', message: structuredClone(message) as never });
    }
    before.close();

    // The resumed run.
    const model = scriptedModel([
      { match: { prompt: 'stopped unexpectedly' }, text: 'RESUMED-DONE' },
      { match: { prompt: 'continue' }, text: 'waiting for the child' },
      { match: { prompt: '<task-notification>' }, text: 'FINAL' },
    ]);
    const transcript = new TranscriptWriter({
      sessionDir,
      sessionId: 's1',
      mainAgentId: 'main_new',
      env: {},
    });
    const tasks = new TaskManager({ store: TaskStore.open(storePath) });
    const events: AgentEvent[] = [];
    const run = query({
      prompt: 'continue',
      options: {
        model,
        cwd,
        agentId: 'main_new',
        tasks,
        resumeTasks: {},
        transcriptPathFor: (agentId) => transcript.pathFor(agentId),
        onEvent: (event) => transcript.write(event),
        permissions: createPermissionPolicy({ mode: 'default' }),
      },
    });
    for await (const event of run) events.push(event);
    transcript.close();

    const resumedCall = model.calls.find((call) =>
      JSON.stringify(call.prompt).includes('stopped unexpectedly'),
    )!;
    const results = resumedCall.prompt.flatMap((message) =>
      message.role === 'tool' ? message.content : [],
    );
    expect(results).toEqual([
      expect.objectContaining({
        toolCallId: 'r1',
        output: { type: 'text', value: expect.stringContaining('NOTES-CONTENT') },
      }),
      expect.objectContaining({
        toolCallId: 'w1',
        output: { type: 'error-text', value: INTERRUPTED_TOOL_OUTPUT },
      }),
    ]);
    expect(existsSync(join(cwd, 'x'))).toBe(false);
    expect(resumedCall.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: RESUMED_PROMPT }],
    });

    const sidechain = readFileSync(transcript.pathFor('agent_crashed1'), 'utf8');
    expect(sidechain).toMatch(/"toolCallId":"r1","toolName":"Read","output":"[^"]*NOTES-CONTENT"/);
    const final = events.at(-1);
    expect(final).toMatchObject({ type: 'result', agentId: 'main_new', result: 'FINAL' });
    const record = run.tasks.get(task.taskId);
    expect(record).toMatchObject({
      status: 'completed',
      attempt: 2,
      result: 'RESUMED-DONE',
      owner: { agentId: 'main_new' },
    });
    expect(record?.notifiedAt).toBeTypeOf('number');
    tasks.store.close();
  });

  it('ends a child whose worktree was removed before the resume, naming the path', async () => {
    const cwd = makeGitRepo(await makeTempDir());
    const storePath = join(cwd, 'sessions', 's2', 'tasks.db');
    const made = await createWorktree({ ...WT_REQUEST, cwd });
    gitIn(cwd, 'worktree', 'remove', '--force', '--force', made.path);
    const task = runningAtCrash(storePath, {
      agentId: 'agent_wt1',
      description: 'change it',
      spec: { prompt: 'WT task', worktree: made.path },
    });

    const warnings: string[] = [];
    const tasks = new TaskManager({ store: TaskStore.open(storePath) });
    const model = scriptedModel([
      { match: { prompt: '<task-notification>' }, text: 'FINAL' },
      { match: { prompt: 'continue' }, text: 'waiting' },
    ]);
    const run = query({
      prompt: 'continue',
      options: { model, cwd, tasks, resumeTasks: { warn: (warning) => warnings.push(warning) } },
    });
    for await (const _ of run);
    expect(model.calls.some((call) => JSON.stringify(call.prompt).includes('WT task'))).toBe(false);
    expect(run.tasks.get(task.taskId)).toMatchObject({ status: 'failed' });
    expect(run.tasks.get(task.taskId)?.error).toContain(
      `its git worktree, ${made.path}, is gone, so it cannot go on there; what it committed is on branch warren/agent_wt1 if that remains (see warren worktrees); ask for the task again if it is still wanted`,
    );
    expect(warnings).toEqual([
      expect.stringContaining(`task ${task.taskId} could not be restarted`),
    ]);
    tasks.store.close();
  });
});

describe('reopenChildWorktree', () => {
  it('takes up a worktree as it was left, bound to it, its lock and record naming this process', async () => {
    const cwd = makeGitRepo(await makeTempDir(), { 'src/app.txt': 'v1\n' });
    const made = await createWorktree({ ...WT_REQUEST, cwd });
    writeFiles(made.path, { 'src/app.txt': 'v2\n' });
    const parent = { cwd: join(cwd, 'src'), allowedDirs: [cwd] };
    const reopened = await reopenChildWorktree({
      worktreePath: made.path,
      agentId: 'agent_wt1',
      parent,
    });
    if (!reopened.ok) throw new Error(reopened.message);
    const { workspace } = reopened;
    expect(workspace.worktree).toMatchObject({ ...made, leftBehind: [] });
    expect(workspace).toMatchObject({ cwd: join(made.path, 'src'), allowedDirs: [made.path] });
    expect(workspace.promptNote).toContain(made.path);
    expect(gitIn(cwd, 'worktree', 'list', '--porcelain')).toContain(
      `locked warren agent agent_wt1 is running (pid ${process.pid})`,
    );
    expect(
      readFileSync(join(cwd, '.git', 'worktrees', 'agent_wt1', 'warren-agent.json'), 'utf8'),
    ).toContain(`"pid": ${process.pid}`);
  });

  it('refuses a folder that is no longer a valid worktree, naming it', async () => {
    const cwd = makeGitRepo(await makeTempDir());
    const made = await createWorktree({ ...WT_REQUEST, cwd });
    rmSync(join(made.path, '.git'));
    const parent = { cwd, allowedDirs: [cwd] };
    const reopened = await reopenChildWorktree({
      worktreePath: made.path,
      agentId: 'agent_wt1',
      parent,
    });
    expect(reopened).toEqual({
      ok: false,
      message: expect.stringContaining(
        `its git worktree, ${made.path}, is no longer a valid git worktree`,
      ),
    });
  });
});
