// Which git metadata a sandboxed command may write, with real git and bubblewrap: a main
// checkout from a subfolder, a worktree child with a writable folder inside the user's checkout,
// and a `.git` file planted to borrow another repository's worktree.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../core/command-sandbox.js';
import { requiredSandbox } from '../testing/hostile/required-sandbox.js';
import { useTempDir } from '../testing/temp-dir.js';
import { outputText, testToolContext } from '../testing/tool-context.js';
import { bashTool } from '../tools/bash.js';

const dir = useTempDir();
let sandbox: CommandSandbox;
let repo: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const COMMIT =
  'git -c user.name=t -c user.email=t@x commit -q --allow-empty -m work && echo COMMITTED';

beforeEach(async () => {
  sandbox = await requiredSandbox();
  repo = path.join(dir(), 'repo');
  await mkdir(path.join(repo, 'sub'), { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  await writeFile(path.join(repo, 'sub', 'a.txt'), 'a\n');
  git(repo, 'add', '--all');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-q', '-m', 'first');
});

async function run(command: string, cwd: string, allowedDirs = [cwd]): Promise<string> {
  return outputText(
    await bashTool.call({ command }, testToolContext({ cwd, allowedDirs, sandbox })),
  );
}

describe('git metadata in the sandbox', () => {
  it('lets an agent working in a subfolder of a checkout commit, and not change its config', async () => {
    const sub = path.join(repo, 'sub');
    expect(await run(COMMIT, sub)).toContain('COMMITTED');
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('work');
    // git renames config.lock over the config: the mount refuses (EBUSY) as it refuses writes.
    expect(await run('git config core.fsmonitor "touch x"', sub)).toContain('Exit code');
    expect(git(repo, 'config', '--list')).not.toContain('fsmonitor');
  });

  it('gives a worktree child nothing of the user’s repository through a writable folder inside the checkout', async () => {
    const worktree = path.join(repo, '.warren', 'worktrees', 'agent_m1');
    git(repo, 'worktree', 'add', '-q', '-b', 'warren/agent_m1', worktree);
    const memory = path.join(repo, '.warren', 'agent-memory', 'helper');
    await mkdir(memory, { recursive: true });
    const main = git(repo, 'rev-parse', 'main');
    const output = await run(
      `git update-ref refs/heads/main HEAD; cd ${memory} && git update-ref refs/heads/main HEAD`,
      worktree,
      [worktree, memory],
    );
    expect(output).toContain('Read-only file system');
    expect(git(repo, 'rev-parse', 'main')).toBe(main);
  });

  it('grants nothing to a `.git` file planted to borrow another repository’s worktree', async () => {
    const worktree = path.join(repo, '.warren', 'worktrees', 'agent_m2');
    git(repo, 'worktree', 'add', '-q', '-b', 'warren/agent_m2', worktree);
    const planted = path.join(dir(), 'tarball');
    await mkdir(planted);
    await writeFile(
      path.join(planted, '.git'),
      `gitdir: ${path.join(repo, '.git', 'worktrees', 'agent_m2')}\n`,
    );
    const branch = git(repo, 'rev-parse', 'warren/agent_m2');
    const output = await run(
      `${COMMIT}; touch ${path.join(repo, '.git', 'objects', 'x')}`,
      planted,
    );
    expect(output).not.toContain('COMMITTED');
    expect(git(repo, 'rev-parse', 'warren/agent_m2')).toBe(branch);
  });
});
