// Remote children through the real `warren` command: a real restate-server, a `warren restate
// serve` worker registered with `warren restate register`, and `warren -p --restate-url` whose
// Agent calls (isolation "remote", a definition's `isolation: remote`) run on the worker, in a
// git worktree made there when the child also asks for one.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seal } from '../remote/signed-envelope.js';
import { jsonLines, runWarren, startWarren } from '../testing/cli-process.js';
import { gitIn, makeGitRepo } from '../testing/git-repo.js';
import type { MockReply } from '../testing/mock-llm/server.js';
import { processesWith, stillAlive } from '../testing/process-liveness.js';
import {
  PARENT_KEY,
  REMOTE_KEY,
  restateSuite,
  type Turn,
  WORKER_KEY,
} from '../testing/restate/restate-world.js';

const suite = restateSuite('remote-children CLI tests');

const agentCall = (input: Record<string, unknown>): MockReply => ({
  toolCalls: [{ name: 'Agent', input: { subagent_type: 'general-purpose', ...input } }],
});

/** An Agent call whose child runs on the worker, in the background. */
const remoteInBackground = (description: string, prompt: string): MockReply =>
  agentCall({ description, prompt, isolation: 'remote', run_in_background: true });

/** The task id in the last tool result (a background start's JSON). */
const taskIdIn = (turn: Turn) => /task_id\\?"\s*:\s*\\?"([\w-]+)/.exec(turn.last)?.[1] ?? '';

/** A folder of the project (for --agents-dir) with one definition, `name`, of that isolation. */
async function agentsDir(folder: string, name: string, isolation: 'remote' | 'worktree') {
  const agents = join(suite.world.project, folder);
  await mkdir(agents, { recursive: true });
  await writeFile(
    join(agents, `${name}.md`),
    `---\nname: ${name}\ndescription: Helps (${isolation}).\nisolation: ${isolation}\n---\nHelp.\n`,
  );
  return agents;
}

/** A git repository in the project (`app.txt` is `v1`), for a child in a worktree. */
async function gitRepo(folder: string) {
  const repo = join(suite.world.project, folder);
  await mkdir(repo, { recursive: true });
  return makeGitRepo(repo, { 'app.txt': 'v1\n' });
}

describe.skipIf(suite.skip)('remote children on Restate', () => {
  it('runs an Agent call with isolation "remote" on the worker, with the worker\'s key', async () => {
    const { world } = suite;
    suite.script = (turn) => {
      if (turn.prompt.includes('CHILD-ONE')) {
        return turn.turn === 0
          ? {
              toolCalls: [
                {
                  name: 'Bash',
                  input: {
                    command:
                      'echo ran-on-worker >> side-one.txt; echo "remote key: $WARREN_REMOTE_KEY" > seen.txt',
                  },
                },
              ],
            }
          : { text: 'child one wrote the marker' };
      }
      return turn.turn === 0
        ? agentCall({
            description: 'write marker',
            prompt: 'CHILD-ONE write it',
            isolation: 'remote',
          })
        : {
            text: `PARENT saw: ${turn.last.includes('child one wrote the marker') ? 'yes' : 'no'}`,
          };
    };
    const run = await world.run(['-p', 'PARENT-ONE go', ...world.flags()]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    const main = lines.at(-1);
    expect(main).toMatchObject({ type: 'result', result: 'PARENT saw: yes' });
    const childResults = lines.filter((line) => line.type === 'agent_end' && line.depth === 1);
    expect(childResults).toHaveLength(1);
    expect(childResults[0]).toMatchObject({
      status: 'completed',
      result: 'child one wrote the marker',
    });
    expect(world.read('side-one.txt')).toBe('ran-on-worker\n');
    // The remote key is the worker's alone: the commands its children run never see it.
    expect(world.read('seen.txt')).toBe('remote key: \n');
    // The child's model calls came from the worker, with the worker's own key; never the parent's.
    const child = world.requestsOf('CHILD-ONE');
    expect(child).toHaveLength(2);
    for (const turn of child)
      expect(turn.request.headers.authorization).toBe(`Bearer ${WORKER_KEY}`);
    expect(world.requestsOf('PARENT-ONE')[0]?.request.headers.authorization).toBe(
      `Bearer ${PARENT_KEY}`,
    );
  }, 240_000);

  it('replays a run with remote children, in the foreground and the background, without a worker or restate-server', async () => {
    const { world } = suite;
    suite.script = (turn) => {
      if (turn.prompt.includes('CHILD-REC-FG')) return { text: 'fg child done' };
      if (turn.prompt.includes('CHILD-REC-BG')) return { delayMs: 300, text: 'bg child done' };
      if (turn.turn === 0) {
        return agentCall({ description: 'fg', prompt: 'CHILD-REC-FG go', isolation: 'remote' });
      }
      if (turn.turn === 1) return remoteInBackground('bg', 'CHILD-REC-BG go');
      if (turn.last.includes('<task-notification>')) return { text: 'PARENT-REC finished' };
      return { text: 'waiting for it' };
    };
    const cassette = join(world.project, 'remote.cassette.jsonl');
    const recorded = await world.run(['-p', 'PARENT-REC go', ...world.flags('--record', cassette)]);
    expect(recorded.code).toBe(0);
    const childCalls = world.requestsOf('CHILD-REC').length;
    const idsOf = (stdout: string) =>
      jsonLines(stdout)
        .at(-1)
        .agents.map((agent: Record<string, unknown>) => [agent.agent_id, agent.task_id]);
    // No model, no --restate-url: the cassette answers the parent and its remote children.
    const replayed = await runWarren(
      [
        '-p',
        'PARENT-REC go',
        '--replay',
        cassette,
        '--session-dir',
        join(world.project, '.replays'),
        '--output-format',
        'stream-json',
      ],
      { env: world.env(), cwd: world.project },
    );
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(jsonLines(replayed.stdout).at(-1)).toMatchObject({ result: 'PARENT-REC finished' });
    expect(idsOf(replayed.stdout)).toEqual(idsOf(recorded.stdout));
    expect(world.requestsOf('CHILD-REC')).toHaveLength(childCalls);
  }, 240_000);

  it('runs a definition with isolation: remote in the background and notifies its parent', async () => {
    const { world } = suite;
    const agents = await agentsDir('agents', 'far-helper', 'remote');
    suite.script = (turn) => {
      if (turn.prompt.includes('CHILD-BG')) return { delayMs: 300, text: 'background child done' };
      if (turn.turn === 0) {
        return agentCall({
          subagent_type: 'far-helper',
          description: 'far work',
          prompt: 'CHILD-BG work',
          run_in_background: true,
        });
      }
      if (turn.last.includes('<task-notification>')) {
        return { text: `PARENT notified: ${turn.last.includes('background child done')}` };
      }
      return { text: 'waiting for it' };
    };
    const run = await world.run(['-p', 'PARENT-BG go', ...world.flags('--agents-dir', agents)]);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.find((line) => line.type === 'task_started')).toMatchObject({
      task_type: 'remote_agent',
      description: 'far work',
    });
    expect(lines.find((line) => line.type === 'task_notification')).toMatchObject({
      status: 'completed',
    });
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'PARENT notified: true' });
    expect(world.requestsOf('CHILD-BG')).toHaveLength(1);
  }, 240_000);

  it('TaskStop cancels a remote child and the children it started, whose processes end', async () => {
    const { world } = suite;
    const pidFile = join(world.project, 'grandchild.pid');
    // Found by name: in the worker's command sandbox `$$` is a PID of the command's namespace.
    const sleep = `sleep 300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    let pids: number[] = [];
    suite.script = async (turn) => {
      if (turn.prompt.includes('GRANDCHILD')) {
        return turn.turn === 0
          ? {
              toolCalls: [
                { name: 'Bash', input: { command: `echo started > ${pidFile}; exec ${sleep}` } },
              ],
            }
          : { text: 'grandchild should not get here' };
      }
      if (turn.prompt.includes('CHILD-STOP')) {
        return turn.turn === 0
          ? agentCall({ description: 'sleep long', prompt: 'GRANDCHILD sleep' })
          : { text: 'child should not get here' };
      }
      if (turn.turn === 0) {
        return remoteInBackground('to be stopped', 'CHILD-STOP start one');
      }
      if (turn.turn === 1) {
        await until(() => world.read('grandchild.pid').trim() !== '');
        pids = processesWith(sleep);
        return { toolCalls: [{ name: 'TaskStop', input: { task_id: taskIdIn(turn) } }] };
      }
      return { text: 'PARENT stopped it' };
    };
    const run = await world.run(['-p', 'PARENT-STOP go', ...world.flags()]);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(pids).not.toEqual([]);
    expect(await stillAlive(pids, 30_000)).toEqual([]);
    const child = lines.find((line) => line.type === 'agent_end' && line.depth === 1);
    expect(child).toMatchObject({ status: 'cancelled' });
    expect(world.requestsOf('CHILD-STOP')).toHaveLength(1);
    expect(world.requestsOf('GRANDCHILD')).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'PARENT stopped it' });
  }, 240_000);

  it('runs every child on a worker with --executor restate, a worktree definition in a worktree made there', async () => {
    const { world } = suite;
    const agents = await agentsDir('tree-agents', 'tree-helper', 'worktree');
    const repo = await gitRepo('tree-repo');
    suite.script = (turn) => {
      if (turn.prompt.includes('CHILD-ALL')) return { text: 'plain child ran' };
      if (turn.prompt.includes('CHILD-TREE')) {
        return turn.turn === 0
          ? { toolCalls: [{ name: 'Bash', input: { command: 'echo v2 > app.txt' } }] }
          : { text: 'tree child changed it' };
      }
      if (turn.turn === 0) return agentCall({ description: 'plain', prompt: 'CHILD-ALL hi' });
      if (turn.turn === 1) {
        return agentCall({
          subagent_type: 'tree-helper',
          description: 'tree',
          prompt: 'CHILD-TREE change the app',
        });
      }
      return { text: `PARENT read: ${turn.last.includes('[Worktree kept')}` };
    };
    const run = await world.run([
      '-p',
      'PARENT-ALL go',
      '--cwd',
      repo,
      '--agents-dir',
      agents,
      ...world.flags('--executor', 'restate'),
    ]);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toMatchObject({ result: 'PARENT read: true' });
    const child = world.requestsOf('CHILD-ALL');
    expect(child).toHaveLength(1);
    expect(child[0]?.request.headers.authorization).toBe(`Bearer ${WORKER_KEY}`);
    // The tree child worked in its own worktree, made on the worker: its system prompt said so.
    const tree = world.requestsOf('CHILD-TREE');
    expect(tree).toHaveLength(2);
    expect(JSON.stringify(tree[0]?.request.body)).toContain('You work in your own git worktree');
    const reports = lines.filter((line) => line.type === 'worktree');
    expect(reports.map((line) => [line.subtype, line.changed])).toEqual([
      ['created', false],
      ['kept', true],
    ]);
    const { agent_id: agentId, branch, path } = reports[1]!;
    expect(path).toBe(join(repo, '.warren', 'worktrees', String(agentId)));
    // Its change is committed on its branch; the main checkout is untouched.
    expect(gitIn(repo, 'show', `${branch}:app.txt`)).toBe('v2');
    expect(readFileSync(join(repo, 'app.txt'), 'utf8')).toBe('v1\n');
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    const parentResult = world.requestsOf('PARENT-ALL').at(-1)?.last ?? '';
    expect(parentResult).toContain(`[Worktree kept: the agent's changes are on branch ${branch}`);
  }, 240_000);

  it('runs a worktree definition called with isolation "remote" in a worktree on the worker, removed when unchanged', async () => {
    const { world } = suite;
    const agents = await agentsDir('reader-agents', 'tree-reader', 'worktree');
    const repo = await gitRepo('reader-repo');
    suite.script = (turn) => {
      if (turn.prompt.includes('CHILD-READ')) return { text: 'read only' };
      if (turn.turn === 0) {
        return agentCall({
          subagent_type: 'tree-reader',
          description: 'read',
          prompt: 'CHILD-READ look',
          isolation: 'remote',
        });
      }
      return { text: `PARENT read: ${turn.last.includes('[Worktree removed')}` };
    };
    const run = await world.run([
      '-p',
      'PARENT-READ go',
      '--cwd',
      repo,
      ...world.flags('--agents-dir', agents),
    ]);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines.at(-1)).toMatchObject({ result: 'PARENT read: true' });
    const reports = lines.filter((line) => line.type === 'worktree');
    expect(reports.map((line) => line.subtype)).toEqual(['created', 'removed']);
    expect(existsSync(String(reports[1]!.path))).toBe(false);
    expect(gitIn(repo, 'worktree', 'list', '--porcelain')).not.toContain('.warren');
    expect(gitIn(repo, 'branch', '--list', 'warren/*')).toBe('');
    expect(world.requestsOf('CHILD-READ')).toHaveLength(1);
  }, 240_000);

  it('SendMessage reaches a running remote child before its next model call', async () => {
    const { world } = suite;
    let sent = false;
    suite.script = async (turn) => {
      if (turn.prompt.includes('CHILD-MSG')) {
        if (turn.turn === 0) {
          await until(() => sent);
          return { toolCalls: [{ name: 'Glob', input: { pattern: 'nothing-*.none' } }] };
        }
        const heard = JSON.stringify(turn.request.body).includes('PING-FROM-PARENT');
        return { text: `child heard: ${heard}` };
      }
      if (turn.turn === 0) {
        return remoteInBackground('listener', 'CHILD-MSG listen');
      }
      if (turn.turn === 1) {
        const agentId = /agent_id\\?"\s*:\s*\\?"([\w-]+)/.exec(turn.last)?.[1] ?? '';
        return {
          toolCalls: [{ name: 'SendMessage', input: { to: agentId, message: 'PING-FROM-PARENT' } }],
        };
      }
      if (turn.last.includes('<task-notification>')) {
        return {
          text: `PARENT: ${turn.last.includes('child heard: true') ? 'heard' : 'not heard'}`,
        };
      }
      sent = sent || turn.last.includes('on its worker');
      return { text: 'waiting' };
    };
    const run = await world.run(['-p', 'PARENT-MSG go', ...world.flags()]);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ result: 'PARENT: heard' });
  }, 240_000);

  it('a background remote child ends while its parent is killed -9; --resume gets its result once, from the durable inbox', async () => {
    const { world } = suite;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    suite.script = async (turn) => {
      if (turn.prompt.includes('CHILD-RESUME')) {
        await released;
        return { text: 'finished while the parent was down' };
      }
      if (turn.turn === 0) {
        return remoteInBackground('outlive parent', 'CHILD-RESUME work');
      }
      if (turn.last.includes('<task-notification>')) {
        return {
          text: `PARENT resumed: ${turn.last.includes('finished while the parent was down')}`,
        };
      }
      return { text: 'waiting' };
    };
    const first = startWarren(['-p', 'PARENT-RESUME go', ...world.flags()], {
      env: world.env(),
      cwd: world.project,
    });
    await first.waitForLine((line) => line.type === 'task_started');
    const started = first.lines.find((line) => line.type === 'task_started') as {
      task_agent_id: string;
    };
    const sessionId = (first.lines[0] as { session_id: string }).session_id;
    await until(() => world.requestsOf('CHILD-RESUME').length === 1);
    first.child.kill('SIGKILL');
    await first.exited;
    release();
    // It ends on its worker with nobody attached.
    await until(async () => {
      const response = await fetch(
        `${world.server.ingressUrl}/subagent/${started.task_agent_id}/progress`,
        signedRead('read-progress', started.task_agent_id),
      );
      return ((await response.json()) as { state?: string } | null)?.state === 'ended';
    });
    // Restate forgets the finished child (as it does once its retention ends): only the
    // session's durable inbox still holds its ending.
    const status = await fetch(
      `${world.server.ingressUrl}/subagent/${started.task_agent_id}/status`,
      signedRead('read-status', started.task_agent_id),
    );
    const { invocationId } = (await status.json()) as { invocationId: string };
    const purged = await fetch(`${world.server.adminUrl}/invocations/${invocationId}/purge`, {
      method: 'PATCH',
    });
    expect(purged.ok).toBe(true);
    const resumed = await world.run(['-p', 'continue', ...world.flags('--resume', sessionId)]);
    expect(resumed.code).toBe(0);
    const lines = jsonLines(resumed.stdout);
    expect(lines.at(-1)).toMatchObject({ result: 'PARENT resumed: true' });
    expect(lines.filter((line) => line.type === 'task_notification')).toHaveLength(1);
    expect(world.requestsOf('CHILD-RESUME')).toHaveLength(1);
  }, 240_000);

  it('says what to do when --executor restate has no ingress, or the ingress has no worker', async () => {
    const { world } = suite;
    const noUrl = await runWarren(['-p', 'hi', '--executor', 'restate', '--model', 'scripted:x'], {
      env: { HOME: world.project },
    });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--restate-url');
    const down = await runWarren(
      ['-p', 'hi', ...world.flags('--restate-url', 'http://127.0.0.1:1')],
      { env: world.env(), cwd: world.project },
    );
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(
      /--restate-url http:\/\/127\.0\.0\.1:1: restate-server does not answer/,
    );
  }, 60_000);
});

/** A read of a child's progress or status, signed with the key as its parent would. */
function signedRead(kind: 'read-progress' | 'read-status', agentId: string): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(seal({ keys: [REMOTE_KEY] }, kind, agentId, '')),
  };
}

/** Waits until `check` holds, looking again every 50 ms. */
async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; !(await check()); ) {
    if (Date.now() > end) throw new Error('waited in vain');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
