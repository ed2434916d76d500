// Worktree isolation as a person meets it: `warren -p` with a child in its own worktree (the
// JSON `agents[].worktree`, stream-json lines), then `warren worktrees` to list, diff, merge and
// prune what it kept. Real processes, real git, a HOME with no git config (as on a fresh CI
// machine). Runs the built CLI (`npm test` builds first).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonLines } from '../testing/cli-process.js';
import { branches, commitAll, gitIn, makeGitRepo, writeFiles } from '../testing/git-repo.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';
import { isolatedChildReply } from '../testing/isolated-child-reply.js';

const cli = useCliSandbox();
const { project, run: warren } = cli;

beforeEach(() => {
  makeGitRepo(project(), { 'notes.txt': 'one\n' });
});

const printArgs = (format: string) => [
  '-p',
  'improve the notes',
  ...cli.againstServer('--permission-mode', 'bypassPermissions', '--output-format', format),
];

/** The main agent starts one isolated child, which rewrites notes.txt; both then finish. */
function enqueueIsolatedChild() {
  cli.server.enqueue(
    isolatedChildReply(),
    { toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'Write', input: { file_path: 'notes.txt', content: 'one\ntwo\n' } }] },
    { text: 'Added a line.' },
    { text: 'The child added a line on its branch.' },
  );
}

describe('warren -p with an isolated child', () => {
  it('reports its worktree in the JSON result: path, branch, changed; the main agent has none', async () => {
    enqueueIsolatedChild();
    const run = await warren(printArgs('json'));
    expect(run.code).toBe(0);
    const [main, child] = JSON.parse(run.stdout).agents;
    expect(main.worktree).toBeNull();
    expect(child.worktree).toEqual({
      path: join(project(), '.warren', 'worktrees', child.agent_id),
      branch: `warren/${child.agent_id}`,
      changed: true,
    });
    expect(readFileSync(join(project(), 'notes.txt'), 'utf8')).toBe('one\n');
    expect(gitIn(project(), 'status', '--porcelain')).toBe('');
  });

  it('streams worktree lines: created, then kept with the diff stat', async () => {
    enqueueIsolatedChild();
    const run = await warren(printArgs('stream-json'));
    const lines = jsonLines(run.stdout).filter((line) => line.type === 'worktree');
    expect(lines.map((line) => [line.subtype, line.changed, line.depth])).toEqual([
      ['created', false, 1],
      ['kept', true, 1],
    ]);
    expect(lines[1].diff_stat).toBe(' notes.txt | 1 +\n 1 file changed, 1 insertion(+)');
  });
});

describe('warren worktrees', () => {
  it('lists what a run kept, shows its diff, merges it, and prune then removes it', async () => {
    enqueueIsolatedChild();
    await warren(printArgs('json'));

    const listed = JSON.parse((await warren(['worktrees', '--json'])).stdout);
    expect(listed.repository).toBe(project());
    const [kept] = listed.worktrees;
    expect(kept).toMatchObject({
      state: 'kept',
      agent_type: 'general-purpose',
      description: 'improve notes',
      changed: true,
      merged: false,
      diff_stat: '1 file changed, 1 insertion(+)',
    });
    const table = await warren(['worktrees']);
    expect(table.stdout).toMatch(
      new RegExp(
        `^AGENT +STATE +BRANCH +CHANGES +AGE +DESCRIPTION\\n${kept.agent_id} +kept +warren/${kept.agent_id} +1 file, 1\\+ +\\d+s +improve notes$`,
        'm',
      ),
    );

    const diff = await warren(['worktrees', 'diff', kept.agent_id]);
    expect(diff.stdout).toContain(' one\n+two');

    const merge = await warren(['worktrees', 'merge', kept.agent_id]);
    expect(merge.code).toBe(0);
    expect(merge.stdout).toMatch(
      new RegExp(`^Merged warren/${kept.agent_id} into main \\([0-9a-f]{12}\\)\\.`),
    );
    expect(readFileSync(join(project(), 'notes.txt'), 'utf8')).toBe('one\ntwo\n');

    const prune = await warren(['worktrees', 'prune']);
    expect(prune.stdout).toBe(`Removed 1: ${kept.agent_id}.\n`);
    expect(branches(project())).toEqual(['main']);
    expect((await warren(['worktrees'])).stdout).toBe(`No agent worktrees in ${project()}.\n`);
  });

  it('fails a conflicting merge with exit 1, naming the file, and changes nothing', async () => {
    enqueueIsolatedChild();
    await warren(printArgs('json'));
    writeFiles(project(), { 'notes.txt': 'main went elsewhere\n' });
    const head = commitAll(project(), 'main moved');
    const [kept] = JSON.parse((await warren(['worktrees', '--json'])).stdout).worktrees;
    const merge = await warren(['worktrees', 'merge', kept.agent_id]);
    expect(merge.code).toBe(1);
    expect(merge.stderr).toBe(
      `warren: Merging warren/${kept.agent_id} into main would conflict in notes.txt. Nothing was changed. To merge it by hand: git merge warren/${kept.agent_id}, resolve the conflicts, then commit.\n`,
    );
    expect(gitIn(project(), 'rev-parse', 'HEAD')).toBe(head);
    expect(gitIn(project(), 'status', '--porcelain')).toBe('');
  });

  it.each([
    [
      ['worktrees', 'open'],
      /^warren: warren worktrees: unknown value "open" \(use one of: list, diff, merge, remove, prune\)/,
    ],
    [['worktrees', 'merge'], /^warren: warren worktrees merge: needs an agent id/],
    [['worktrees', 'diff', '../../etc'], /is not an agent id/],
    [['worktrees', 'remove', 'agent_nope'], /no agent worktree or branch for agent_nope/],
    [['worktrees', 'list', '--force'], /--force is only for remove and prune/],
    [['worktrees', '--cwd', '/'], /is not inside a git work tree .*pass --cwd/],
  ])('exits 2 with the fix for %j', async (args, message) => {
    const run = await warren(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
