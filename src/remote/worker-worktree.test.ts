// A remote child's worktree on its worker, with a journal kept in a Map: made once (a replay gets
// the journaled one back), its steps refused on a worker that lacks it, and finished by name.
import { existsSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ChildRun } from '../agents/child-run.js';
import type { ChildWorkspace } from '../agents/child-worktree.js';
import { workerRuntime } from '../run/worker-child.js';
import { gitIn, makeGitRepo } from '../testing/git-repo.js';
import { finishedRun } from '../testing/run-results.js';
import { useTempDir } from '../testing/temp-dir.js';
import { checkChildSpec } from './child-spec-schema.js';
import {
  finishWorkerWorktree,
  openWorkerWorktree,
  type SideStep,
  stepsInWorktree,
} from './worker-worktree.js';

const repo = useTempDir('warren-worker-worktree-');

/** Side steps journaled by name: a second run with the same journal is a replay. */
function journal(): { side: SideStep; ran: string[] } {
  const kept = new Map<string, unknown>();
  const ran: string[] = [];
  const side: SideStep = async (name, work) => {
    if (!kept.has(name)) {
      ran.push(name);
      kept.set(name, JSON.parse(JSON.stringify(await work())));
    }
    return kept.get(name) as never;
  };
  return { side, ran };
}

const specIn = (cwd: string) =>
  checkChildSpec({
    agentId: 'agent_wt1',
    parentId: 'main',
    depth: 1,
    agentPath: 'main/Agent#1/helper',
    description: 'helper',
    prompt: 'hi',
    definition: { name: 'helper', description: 'Helps.', prompt: 'Help.' },
    definitions: [],
    tools: ['Bash'],
    model: { spec: 'openai-compatible:test-model' },
    cwd,
    worktree: {},
    budget: { maxTurns: 3 },
    permissions: { mode: 'default', allow: [], deny: [], ask: [] },
    maxDepth: 2,
    calls: {},
  });

const ended = finishedRun(
  { agentId: 'agent_wt1', parentId: 'main', depth: 1 },
  { result: 'done', agentType: 'helper', description: 'helper' },
);

/** The worker's child of `spec`, in `workspace`, as run/worker-child.ts makes it. */
function childIn(spec: ReturnType<typeof specIn>, workspace: ChildWorkspace): ChildRun {
  const runtime = workerRuntime(spec, { startedAt: Date.now() });
  const ref = { agentId: spec.agentId, parentId: spec.parentId, depth: spec.depth };
  const owner = { agentId: spec.parentId, parentId: null, depth: 0 };
  const child = new ChildRun(runtime, ref, owner, {
    agentType: spec.definition.name,
    description: spec.description,
  });
  child.workspace = workspace;
  return child;
}

describe('a remote child in a worktree on its worker', () => {
  it('is made once: a replay gets the journaled worktree back instead of a second', async () => {
    makeGitRepo(repo());
    const spec = specIn(repo());
    const { side, ran } = journal();
    const first = await openWorkerWorktree(spec, side);
    const again = await openWorkerWorktree(spec, side);
    if (!first.ok || !again.ok) throw new Error('no worktree');
    expect(ran).toEqual(['open worktree']);
    expect(again.workspace.worktree).toEqual(first.workspace.worktree);
    expect(again.workspace.cwd).toBe(first.workspace.cwd);
    expect(again.workspace.promptNote).toContain('You work in your own git worktree');
    expect(gitIn(repo(), 'worktree', 'list').split('\n')).toHaveLength(2);
    const finished = await finishWorkerWorktree(childIn(spec, again.workspace), side, ended);
    expect(finished.worktree?.note).toContain('[Worktree removed');
    expect(finished.worktree?.reports.map((report) => report.action)).toEqual([
      'created',
      'removed',
    ]);
    expect(existsSync(first.workspace.worktree.path)).toBe(false);
  });

  it('fails its steps on a worker where the journaled worktree is not, naming the path and the fix', async () => {
    makeGitRepo(repo());
    const spec = specIn(repo());
    const { side } = journal();
    const opened = await openWorkerWorktree(spec, side);
    if (!opened.ok) throw new Error(opened.message);
    const { path } = opened.workspace.worktree;
    // Another worker, without the disk this one made the worktree on.
    rmSync(path, { recursive: true, force: true });
    const steps = stepsInWorktree({ run: (_step, work) => work() }, opened.workspace);
    await expect(steps.run({ kind: 'model', name: 'model#1' }, async () => 'ran')).rejects.toThrow(
      `its git worktree ${path} is not on this worker`,
    );
    await expect(steps.run({ kind: 'model', name: 'model#1' }, async () => 'ran')).rejects.toThrow(
      /same path on every worker \(a shared filesystem\), or a single worker/,
    );
    const finished = await finishWorkerWorktree(childIn(spec, opened.workspace), side, ended);
    expect(finished.worktree?.note).toContain(`[Worktree not finished: its git worktree ${path}`);
  });

  it("ends the child with git's reason when the cwd is not in a repository", async () => {
    const { side } = journal();
    const opened = await openWorkerWorktree(specIn(repo()), side);
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.message).toContain('needs a git worktree');
  });
});
