// What a person does with kept agent worktrees (`warren worktrees`), on real git: list them with
// their state and changes, see one's diff, merge its branch (a conflict changes nothing), remove
// one, prune those with nothing unmerged (never one with changes unless forced, never a running one).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { rejectionOf as catchError } from '../testing/caught-errors.js';
import {
  branches,
  commitAll,
  gitIn,
  makeGitRepo,
  worktreeLeftovers,
  writeFiles,
} from '../testing/git-repo.js';
import { useTempDir } from '../testing/temp-dir.js';
import { type AgentWorktree, createWorktree } from './create-worktree.js';
import { diffWorktree } from './diff-worktree.js';
import { finishWorktree } from './finish-worktree.js';
import { listWorktrees } from './list-worktrees.js';
import { MergeError, mergeWorktree } from './merge-worktree.js';
import { pruneWorktrees, removeAgentWorktree } from './prune-worktrees.js';
import { adminDirOf, readMetadata, writeMetadata } from './worktree-metadata.js';

const repo = useTempDir('warren-manage-');

/** A worktree the agent `agentId` left behind, with `files` written (kept), or still running. */
async function agentWorktree(
  agentId: string,
  options: { files?: Record<string, string>; running?: boolean; description?: string } = {},
): Promise<AgentWorktree> {
  const worktree = await createWorktree({
    cwd: repo(),
    agentId,
    parentId: 'main_1',
    agentType: 'general-purpose',
    description: options.description ?? `work of ${agentId}`,
  });
  if (options.files) writeFiles(worktree.path, options.files);
  if (!options.running)
    await finishWorktree(worktree, { description: options.description ?? agentId });
  return worktree;
}

/** Makes a running worktree look like one whose process died (a crash left the lock). */
async function orphan(worktree: AgentWorktree): Promise<void> {
  const adminDir = await adminDirOf(worktree.repository.commonDir, worktree.path);
  const metadata = await readMetadata(adminDir);
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  await writeMetadata(adminDir!, { ...metadata!, pid: dead });
}

const byId = async () =>
  Object.fromEntries(
    (await listWorktrees(repo())).worktrees.map((worktree) => [worktree.agentId, worktree]),
  );

describe('listing agent worktrees', () => {
  it('shows each with its agent, description, branch, state, changes and age', async () => {
    makeGitRepo(repo(), { 'a.txt': 'one\n' });
    await agentWorktree('agent_kept', {
      files: { 'a.txt': 'one\ntwo\n' },
      description: 'add a line',
    });
    await agentWorktree('agent_busy', { running: true });
    const listed = await byId();
    expect(Object.keys(listed).sort()).toEqual(['agent_busy', 'agent_kept']);
    expect(listed.agent_kept).toMatchObject({
      state: 'kept',
      branch: 'warren/agent_kept',
      changed: true,
      merged: false,
      shortStat: '1 file changed, 1 insertion(+)',
      uncommitted: [],
      metadata: { description: 'add a line', agentType: 'general-purpose', parentId: 'main_1' },
    });
    expect(Date.now() - listed.agent_kept!.createdAt!.getTime()).toBeLessThan(60_000);
    expect(listed.agent_busy).toMatchObject({ state: 'running', changed: false });
  });

  it('calls orphaned a worktree whose run died, one whose folder is gone, and a branch left alone', async () => {
    makeGitRepo(repo());
    await orphan(await agentWorktree('agent_crashed', { running: true }));
    const gone = await agentWorktree('agent_gone', { files: { 'x.txt': 'x\n' } });
    rmSync(gone.path, { recursive: true, force: true });
    gitIn(repo(), 'branch', 'warren/agent_lone');
    const listed = await byId();
    expect(listed.agent_crashed?.orphanedBecause).toMatch(
      /the run that made it \(pid \d+\) ended without finishing it/,
    );
    expect(listed.agent_gone).toMatchObject({
      state: 'orphaned',
      orphanedBecause: 'its folder is gone',
      changed: true,
    });
    expect(listed.agent_lone).toMatchObject({ state: 'orphaned', changed: false, merged: true });
  });
});

describe('the diff of an agent worktree', () => {
  it('is the patch against its base, what the agent left uncommitted included, and its new untracked files', async () => {
    makeGitRepo(repo(), { 'a.txt': 'one\n' });
    const worktree = await agentWorktree('agent_d', { files: { 'a.txt': 'ONE\n' } });
    writeFiles(worktree.path, { 'a.txt': 'ONE!\n', 'later.txt': 'new\n' });
    const diff = await diffWorktree(repo(), 'agent_d');
    expect(diff.patch).toContain('-one\n+ONE!');
    expect(diff.stat).toContain('a.txt | 2 +-');
    expect(diff.untracked).toEqual(['later.txt']);
  });
});

describe('merging an agent worktree', () => {
  it('merges its branch into the current one and says what came in', async () => {
    makeGitRepo(repo(), { 'a.txt': 'one\n' });
    await agentWorktree('agent_m', {
      files: { 'b.txt': 'from the agent\n' },
      description: 'add b',
    });
    const merged = await mergeWorktree(repo(), 'agent_m');
    expect(merged).toMatchObject({ branch: 'warren/agent_m', into: 'main', present: true });
    expect(merged.diffStat).toContain('b.txt | 1 +');
    expect(readFileSync(path.join(repo(), 'b.txt'), 'utf8')).toBe('from the agent\n');
    expect(gitIn(repo(), 'log', '-1', '--format=%s')).toBe('Merge warren/agent_m: add b');
    expect(await mergeWorktree(repo(), 'warren/agent_m')).toMatchObject({ commit: null });
  });

  it('on a conflict fails clearly, naming the files, and changes nothing', async () => {
    makeGitRepo(repo(), { 'a.txt': 'one\n' });
    await agentWorktree('agent_c', { files: { 'a.txt': 'agent\n' } });
    writeFiles(repo(), { 'a.txt': 'main\n' });
    const head = commitAll(repo(), 'main moved on');
    const error = await catchError(mergeWorktree(repo(), 'agent_c'));
    expect(MergeError.isInstance(error)).toBe(true);
    expect((error as MergeError).message).toBe(
      'Merging warren/agent_c into main would conflict in a.txt. Nothing was changed. To merge it by hand: git merge warren/agent_c, resolve the conflicts, then commit.',
    );
    expect(gitIn(repo(), 'rev-parse', 'HEAD')).toBe(head);
    expect(gitIn(repo(), 'status', '--porcelain')).toBe('');
    expect(existsSync(path.join(repo(), '.git', 'MERGE_HEAD'))).toBe(false);
  });

  it('when git fails (a locked index) reports git and changes nothing', async () => {
    makeGitRepo(repo(), { 'a.txt': 'one\n' });
    await agentWorktree('agent_l', { files: { 'b.txt': 'b\n' } });
    writeFileSync(path.join(repo(), '.git', 'index.lock'), '');
    const head = gitIn(repo(), 'rev-parse', 'HEAD');
    const error = await catchError(mergeWorktree(repo(), 'agent_l'));
    expect((error as Error).message).toMatch(
      /^Merging warren\/agent_l into main failed, and nothing was changed: .*index/s,
    );
    rmSync(path.join(repo(), '.git', 'index.lock'));
    expect(gitIn(repo(), 'rev-parse', 'HEAD')).toBe(head);
    expect(gitIn(repo(), 'status', '--porcelain')).toBe('');
  });

  it.each([
    [
      'its agent is still running',
      async () => agentWorktree('agent_x', { running: true }),
      /its agent is still running/,
    ],
    [
      'the checkout is on a detached HEAD',
      async () => {
        await agentWorktree('agent_x', { files: { 'b.txt': 'b\n' } });
        gitIn(repo(), 'checkout', '--quiet', '--detach');
      },
      /HEAD is detached in .* \(check out the branch to merge into/,
    ],
    [
      'its worktree has uncommitted changes',
      async () =>
        writeFiles((await agentWorktree('agent_x', { files: { 'b.txt': 'b\n' } })).path, {
          'c.txt': 'c\n',
        }),
      /its worktree has uncommitted changes \(c\.txt\)/,
    ],
    ['there is no such agent', async () => {}, /no agent worktree or branch for agent_x/],
  ])('is refused as bad usage when %s', async (_, setUp, message) => {
    makeGitRepo(repo());
    await setUp();
    const error = await catchError(mergeWorktree(repo(), 'agent_x'));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses an agent id that is not one, and a directory that is not a repository', async () => {
    await expect(mergeWorktree(repo(), '../../etc')).rejects.toThrow(/is not an agent id/);
    await expect(mergeWorktree(repo(), 'agent_x')).rejects.toThrow(
      /warren worktrees list: .* is not inside a git work tree .*pass --cwd/,
    );
  });
});

describe('removing and pruning agent worktrees', () => {
  it('removes one with changes only when forced, with its branch', async () => {
    makeGitRepo(repo());
    const worktree = await agentWorktree('agent_r', { files: { 'b.txt': 'b\n' } });
    await expect(removeAgentWorktree(repo(), 'agent_r', { force: false })).rejects.toThrow(
      /it has changes that are not merged \(1 file changed, 1 insertion\(\+\)\) \(merge it with `warren worktrees merge agent_r`, or pass --force/,
    );
    await removeAgentWorktree(repo(), 'agent_r', { force: true });
    expect(existsSync(worktree.path)).toBe(false);
    expect(branches(repo())).toEqual(['main']);
  });

  it('never removes one whose agent runs, even forced', async () => {
    makeGitRepo(repo());
    await agentWorktree('agent_run', { running: true });
    await expect(removeAgentWorktree(repo(), 'agent_run', { force: true })).rejects.toThrow(
      /still running/,
    );
    const { removed, kept } = await pruneWorktrees(repo(), { force: true });
    expect(removed).toEqual([]);
    expect(kept.map(({ worktree, reason }) => [worktree.agentId, reason])).toEqual([
      ['agent_run', 'its agent is still running'],
    ]);
  });

  it('prune removes the unchanged, the merged and the orphans with nothing unmerged, and keeps (unlocked) the ones with changes', async () => {
    makeGitRepo(repo());
    await agentWorktree('agent_merged', { files: { 'm.txt': 'm\n' } });
    await mergeWorktree(repo(), 'agent_merged');
    await orphan(await agentWorktree('agent_crashed_empty', { running: true }));
    const crashed = await agentWorktree('agent_crashed_work', { running: true });
    writeFiles(crashed.path, { 'w.txt': 'work\n' });
    commitAll(crashed.path, 'work');
    await orphan(crashed);
    await agentWorktree('agent_changes', { files: { 'c.txt': 'c\n' } });
    gitIn(repo(), 'branch', 'warren/agent_lone');

    const { removed, kept } = await pruneWorktrees(repo(), { force: false });
    expect(removed.map((worktree) => worktree.agentId).sort()).toEqual([
      'agent_crashed_empty',
      'agent_lone',
      'agent_merged',
    ]);
    expect(kept.map(({ worktree }) => worktree.agentId).sort()).toEqual([
      'agent_changes',
      'agent_crashed_work',
    ]);
    expect(gitIn(repo(), 'worktree', 'list', '--porcelain')).not.toContain('locked');
    expect(worktreeLeftovers(repo()).worktrees).toBe(2);

    const forced = await pruneWorktrees(repo(), { force: true });
    expect(forced.removed).toHaveLength(2);
    expect(worktreeLeftovers(repo())).toEqual({ worktrees: 0, branches: [] });
  });
});
