// An agent's worktree on real git, from creation to its end: where it is made and from what, how
// it is locked and kept out of the parent's status, and what finishing does with and without
// changes. Failures leave nothing behind.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commitAll,
  gitIn,
  makeGitRepo,
  worktreeLeftovers,
  writeFiles,
} from '../testing/git-repo.js';
import { useTempDir } from '../testing/temp-dir.js';
import { type AgentWorktree, createWorktree, type WorktreeRequest } from './create-worktree.js';
import { finishWorktree } from './finish-worktree.js';
import { adminDirOf, readMetadata } from './worktree-metadata.js';

const dir = useTempDir('warren-worktree-');

const request = (overrides: Partial<WorktreeRequest> = {}): WorktreeRequest => ({
  cwd: dir(),
  agentId: 'agent_0001',
  parentId: 'main_1',
  agentType: 'general-purpose',
  description: 'try a refactor',
  ...overrides,
});

const repo = (files?: Record<string, string>) => makeGitRepo(dir(), files);

/** Everything a failed or finished worktree could leave: git's entries, branches, the folder. */
function leftovers(root: string, worktree: { path: string }) {
  return {
    ...worktreeLeftovers(root),
    folder: existsSync(worktree.path),
    status: gitIn(root, 'status', '--porcelain'),
  };
}

const NOTHING_LEFT = { worktrees: 0, branches: [], folder: false, status: '' };

describe('creating a worktree', () => {
  it('checks out the parent HEAD at .warren/worktrees/<agent-id> on branch warren/<agent-id>, locked', async () => {
    repo({ 'src/a.ts': 'export const a = 1;\n' });
    const worktree = await createWorktree(request());
    expect(worktree.path).toBe(path.join(dir(), '.warren', 'worktrees', 'agent_0001'));
    expect(worktree.branch).toBe('warren/agent_0001');
    expect(worktree.baseCommit).toBe(gitIn(dir(), 'rev-parse', 'HEAD'));
    expect(readFileSync(path.join(worktree.path, 'src/a.ts'), 'utf8')).toBe(
      'export const a = 1;\n',
    );
    expect(gitIn(worktree.path, 'branch', '--show-current')).toBe('warren/agent_0001');
    const listing = gitIn(dir(), 'worktree', 'list', '--porcelain');
    expect(listing).toContain('locked warren agent agent_0001 is running');
  });

  it("keeps the parent's status clean through .git/info/exclude, and adds the line once", async () => {
    repo();
    await createWorktree(request({ agentId: 'agent_a' }));
    await Promise.all([
      createWorktree(request({ agentId: 'agent_b' })),
      createWorktree(request({ agentId: 'agent_c' })),
    ]);
    expect(gitIn(dir(), 'status', '--porcelain')).toBe('');
    const exclude = readFileSync(path.join(dir(), '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((line) => line === '/.warren/worktrees/')).toHaveLength(1);
    expect(existsSync(path.join(dir(), '.gitignore'))).toBe(false);
  });

  it("names the parent's uncommitted changes, which the worktree does not have", async () => {
    repo({ 'notes.txt': 'committed\n' });
    writeFiles(dir(), { 'notes.txt': 'edited, not committed\n', 'draft.txt': 'new\n' });
    const worktree = await createWorktree(request());
    expect(worktree.leftBehind.sort()).toEqual(['draft.txt', 'notes.txt']);
    expect(readFileSync(path.join(worktree.path, 'notes.txt'), 'utf8')).toBe('committed\n');
    expect(existsSync(path.join(worktree.path, 'draft.txt'))).toBe(false);
  });

  it('branches from a ref when asked (worktreeBase), and from a detached HEAD', async () => {
    repo({ 'v.txt': 'one\n' });
    const first = gitIn(dir(), 'rev-parse', 'HEAD');
    gitIn(dir(), 'tag', 'v1');
    writeFiles(dir(), { 'v.txt': 'two\n' });
    commitAll(dir(), 'second');
    const fromTag = await createWorktree(request({ agentId: 'agent_tag', base: 'v1' }));
    expect(fromTag).toMatchObject({ baseRef: 'v1', baseCommit: first });
    expect(readFileSync(path.join(fromTag.path, 'v.txt'), 'utf8')).toBe('one\n');

    gitIn(dir(), 'checkout', '--quiet', '--detach', 'HEAD');
    const detached = await createWorktree(request({ agentId: 'agent_detached' }));
    expect(detached.baseCommit).toBe(gitIn(dir(), 'rev-parse', 'HEAD'));
  });

  it('records whose worktree it is, for `warren worktrees`', async () => {
    repo();
    const worktree = await createWorktree(request());
    const metadata = await readMetadata(
      await adminDirOf(worktree.repository.commonDir, worktree.path),
    );
    expect(metadata).toMatchObject({
      agentId: 'agent_0001',
      parentId: 'main_1',
      agentType: 'general-purpose',
      description: 'try a refactor',
      baseRef: 'HEAD',
      baseCommit: worktree.baseCommit,
      pid: process.pid,
    });
  });

  it('puts a nested agent beside the others in the main checkout, branched from its parent worktree', async () => {
    repo({ 'a.txt': 'base\n' });
    const parent = await createWorktree(request({ agentId: 'agent_parent' }));
    writeFiles(parent.path, { 'a.txt': 'parent commit\n' });
    const parentCommit = commitAll(parent.path, 'parent work');
    const child = await createWorktree(request({ cwd: parent.path, agentId: 'agent_child' }));
    expect(child.path).toBe(path.join(dir(), '.warren', 'worktrees', 'agent_child'));
    expect(child.baseCommit).toBe(parentCommit);
    expect(child.repository.root).toBe(dir());
  });

  describe('refuses clearly and leaves nothing behind', () => {
    it('outside a git repository', async () => {
      await expect(createWorktree(request())).rejects.toThrow(/not inside a git work tree/);
      expect(existsSync(path.join(dir(), '.warren'))).toBe(false);
    });

    it('in a repository without commits', async () => {
      gitIn(dir(), 'init', '--quiet');
      await expect(createWorktree(request())).rejects.toThrow(/no commits yet/);
    });

    it('for a base that names no commit, or looks like an option', async () => {
      repo();
      await expect(createWorktree(request({ base: 'no-such-branch' }))).rejects.toThrow(
        /names no commit/,
      );
      await expect(createWorktree(request({ base: '--orphan' }))).rejects.toThrow(/is not a ref/);
    });

    it('for an agent id that is not safe as a path and a branch', async () => {
      repo();
      for (const agentId of ['../escape', 'a/b', '-rf', 'x'.repeat(65), 'with space']) {
        await expect(createWorktree(request({ agentId }))).rejects.toThrow(/is not an agent id/);
      }
    });

    it('when git fails halfway (the branch cannot be made): no worktree, no branch, no folder', async () => {
      repo();
      // A file where git keeps the warren/ branches: every `warren/<id>` ref fails to lock.
      writeFileSync(path.join(dir(), '.git', 'refs', 'heads', 'warren'), 'in the way\n');
      const failed = createWorktree(request());
      await expect(failed).rejects.toThrow(/git .*worktree add.* failed: .*cannot lock ref/s);
      const worktree = { path: path.join(dir(), '.warren', 'worktrees', 'agent_0001') };
      expect(leftovers(dir(), worktree)).toEqual(NOTHING_LEFT);
    });

    it('when the branch name is taken: that branch is left alone', async () => {
      repo();
      gitIn(dir(), 'branch', 'warren/agent_0001');
      await expect(createWorktree(request())).rejects.toThrow(/already exists/);
      expect(worktreeLeftovers(dir())).toEqual({ worktrees: 0, branches: ['warren/agent_0001'] });
    });

    it('when the folder is there already: a worktree is never reused', async () => {
      repo();
      await mkdir(path.join(dir(), '.warren', 'worktrees', 'agent_0001'), { recursive: true });
      await expect(createWorktree(request())).rejects.toThrow(/never reuses a worktree/);
    });
  });

  it('works in a repository with submodules, which it does not check out', async () => {
    const sub = path.join(dir(), 'sub-origin');
    await mkdir(sub);
    makeGitRepo(sub, { 'lib.txt': 'library\n' });
    const main = path.join(dir(), 'main');
    await mkdir(main);
    makeGitRepo(main);
    gitIn(main, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', sub, 'lib');
    commitAll(main, 'add submodule');
    const worktree = await createWorktree(request({ cwd: main }));
    expect(worktree.hasSubmodules).toBe(true);
    // Even after the agent checks the submodule out, the worktree goes cleanly when unchanged.
    gitIn(
      worktree.path,
      '-c',
      'protocol.file.allow=always',
      'submodule',
      'update',
      '--quiet',
      '--init',
    );
    const outcome = await finishWorktree(worktree, { description: 'x' });
    expect(outcome).toMatchObject({ changed: false, kept: false, problem: null });
    expect(leftovers(main, worktree)).toMatchObject({ worktrees: 0, branches: [], folder: false });
  });
});

describe('finishing a worktree', () => {
  async function made(files?: Record<string, string>): Promise<AgentWorktree> {
    repo(files);
    return createWorktree(request());
  }

  it('without changes: removes the worktree, its branch and its folder', async () => {
    const worktree = await made();
    const outcome = await finishWorktree(worktree, { description: 'look around' });
    expect(outcome).toEqual({
      agentId: 'agent_0001',
      path: worktree.path,
      branch: 'warren/agent_0001',
      changed: false,
      kept: false,
      commit: null,
      diffStat: '',
      problem: null,
    });
    expect(leftovers(dir(), worktree)).toEqual(NOTHING_LEFT);
  });

  it('counts ignored files (build output) as no change', async () => {
    const worktree = await made({ '.gitignore': 'build/\n' });
    writeFiles(worktree.path, { 'build/out.js': 'compiled\n' });
    expect(await finishWorktree(worktree, { description: 'build' })).toMatchObject({
      changed: false,
      kept: false,
    });
  });

  it('with uncommitted changes: commits them to its branch, unlocks it and keeps it, with a diff stat', async () => {
    const worktree = await made({ 'a.txt': 'one\n' });
    writeFiles(worktree.path, { 'a.txt': 'one\ntwo\n', 'new.txt': 'fresh\n' });
    const outcome = await finishWorktree(worktree, { description: 'add a line' });
    expect(outcome).toMatchObject({ changed: true, kept: true, problem: null });
    expect(outcome.commit).toBe(gitIn(dir(), 'rev-parse', 'warren/agent_0001'));
    expect(outcome.diffStat).toBe(
      [' a.txt   | 1 +', ' new.txt | 1 +', ' 2 files changed, 2 insertions(+)'].join('\n'),
    );
    expect(gitIn(worktree.path, 'status', '--porcelain')).toBe('');
    expect(gitIn(dir(), 'log', '-1', '--format=%s%n%an', 'warren/agent_0001')).toBe(
      'add a line\nTest',
    );
    expect(gitIn(dir(), 'worktree', 'list', '--porcelain')).not.toContain('locked');
    // The parent's checkout is untouched.
    expect(readFileSync(path.join(dir(), 'a.txt'), 'utf8')).toBe('one\n');
    expect(gitIn(dir(), 'status', '--porcelain')).toBe('');
  });

  it('with commits of its own and nothing uncommitted: keeps it as it is', async () => {
    const worktree = await made({ 'a.txt': 'one\n' });
    writeFiles(worktree.path, { 'a.txt': 'changed\n' });
    const own = commitAll(worktree.path, 'agent commit');
    const outcome = await finishWorktree(worktree, { description: 'x' });
    expect(outcome).toMatchObject({ changed: true, kept: true, commit: null });
    expect(gitIn(dir(), 'rev-parse', 'warren/agent_0001')).toBe(own);
  });

  it('when the repository names no author, commits as warren', async () => {
    const worktree = await made();
    gitIn(dir(), 'config', '--unset', 'user.name');
    gitIn(dir(), 'config', '--unset', 'user.email');
    writeFiles(worktree.path, { 'x.txt': 'x\n' });
    const saved = { ...process.env };
    Object.assign(process.env, { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });
    for (const name of [
      'GIT_AUTHOR_NAME',
      'GIT_AUTHOR_EMAIL',
      'GIT_COMMITTER_NAME',
      'GIT_COMMITTER_EMAIL',
      'EMAIL',
    ]) {
      delete process.env[name];
    }
    try {
      gitIn(dir(), 'config', 'user.useConfigOnly', 'true');
      const outcome = await finishWorktree(worktree, { description: 'x' });
      expect(outcome.problem).toBeNull();
      expect(gitIn(dir(), 'log', '-1', '--format=%an <%ae>', 'warren/agent_0001')).toBe(
        'warren <warren@localhost>',
      );
    } finally {
      process.env = saved;
    }
  });

  it('keeps it, saying why, when its changes cannot be committed (a conflict left unresolved)', async () => {
    const worktree = await made({ 'a.txt': 'base\n' });
    gitIn(worktree.path, 'checkout', '--quiet', '-b', 'side');
    writeFiles(worktree.path, { 'a.txt': 'side\n' });
    commitAll(worktree.path, 'side');
    gitIn(worktree.path, 'checkout', '--quiet', 'warren/agent_0001');
    writeFiles(worktree.path, { 'a.txt': 'mine\n' });
    commitAll(worktree.path, 'mine');
    try {
      gitIn(worktree.path, 'merge', '--quiet', 'side');
    } catch {
      // the conflict is the point
    }
    const outcome = await finishWorktree(worktree, { description: 'x' });
    expect(outcome).toMatchObject({ changed: true, kept: true, commit: null });
    expect(outcome.problem).toBe(
      'it left unresolved conflicts (a.txt), so nothing was committed; they are in the worktree as it left them',
    );
    expect(gitIn(worktree.path, 'rev-parse', 'HEAD')).toBe(
      gitIn(dir(), 'rev-parse', 'warren/agent_0001'),
    );
    expect(existsSync(worktree.path)).toBe(true);
  });

  it('removes a symlink the agent left into the main checkout, never what it points at', async () => {
    const worktree = await made({ '.gitignore': 'escape\n', 'keep.txt': 'precious\n' });
    await symlink(dir(), path.join(worktree.path, 'escape'));
    const outcome = await finishWorktree(worktree, { description: 'x' });
    expect(outcome).toMatchObject({ changed: false, kept: false });
    expect(readFileSync(path.join(dir(), 'keep.txt'), 'utf8')).toBe('precious\n');
  });
});
