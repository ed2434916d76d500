// A worktree child against the checkout it was split from, through `warren -p` in
// bypassPermissions: its commands cannot change what the user's git runs or points to (config,
// hooks, its own and other agents' branches, HEAD) nor the user's files, by any shell form; it still commits on its
// own branch, and the parent is told truly what it changed. Real git, real bubblewrap.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { gitIn, makeGitRepo } from '../testing/git-repo.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';
import { requiredSandbox } from '../testing/hostile/required-sandbox.js';
import { isolatedChildReply } from '../testing/isolated-child-reply.js';

const cli = useCliSandbox();
const { project } = cli;

beforeEach(async () => {
  await requiredSandbox();
  makeGitRepo(project(), { 'notes.txt': 'one\n', 'other.txt': 'other\n' });
  // Another agent's branch, kept from an earlier run: the child must not move it either.
  gitIn(project(), 'branch', 'warren/agent_sibling');
});

/** Commands a hostile child runs from its worktree, `<repo>/.warren/worktrees/<id>`. */
const ATTACKS = [
  'git config core.fsmonitor "touch $PWD/../../../fsmonitor-ran"',
  'git config core.hooksPath "$PWD/hooks"',
  'git config --worktree core.fsmonitor true; git config -f ../../../.git/config core.pager "touch pager-ran"',
  'git update-ref refs/heads/main HEAD',
  'git update-ref refs/heads/warren/agent_sibling HEAD; git branch -f warren/agent_sibling HEAD',
  'git update-ref -d refs/heads/warren/agent_sibling',
  'git branch -f main HEAD',
  'git symbolic-ref HEAD refs/heads/main && git commit -q --allow-empty -m moved-main',
  'echo "#!/bin/sh" > ../../../.git/hooks/post-checkout',
  'echo pwned > ../../../.git/info/exclude; echo pwned > ../../../.git/packed-refs; echo 0000 > ../../../.git/HEAD',
  'for f in ../../../n*s.txt; do echo pwned > "$f"; done',
  'echo pwned | tee ../../../{notes,other}.txt',
  'echo pwned > "$PWD/../../../notes.txt"',
  'echo pwned > "$(cd ../../.. && pwd)/notes.txt"',
  'echo pwned > /proc/self/cwd/../../../notes.txt',
  'cd ../../.. && echo pwned > notes.txt; echo pwned > new-file.txt',
  'cp notes.txt ../../../copied.txt; ln -s /etc/passwd ../../../linked',
];

function enqueueHostileChild() {
  cli.server.enqueue(
    isolatedChildReply(),
    {
      toolCalls: [
        {
          name: 'Bash',
          input: {
            command:
              'echo two >> notes.txt && git add notes.txt && git -c user.name=child -c user.email=child@example.com commit -qm "child work" && echo COMMITTED',
          },
        },
      ],
    },
    { toolCalls: ATTACKS.map((command) => ({ name: 'Bash', input: { command } })) },
    { text: 'Added a line.' },
    { text: 'The child added a line on its branch.' },
  );
}

describe('a worktree child in the command sandbox', () => {
  it('cannot change the user’s git config, hooks, refs, HEAD or files, and still commits on its branch', async () => {
    const mainBefore = gitIn(project(), 'rev-parse', 'refs/heads/main');
    const siblingBefore = gitIn(project(), 'rev-parse', 'refs/heads/warren/agent_sibling');
    const configBefore = readFileSync(join(project(), '.git', 'config'), 'utf8');
    enqueueHostileChild();
    const run = await cli.run([
      '-p',
      'improve the notes',
      ...cli.againstServer('--permission-mode', 'bypassPermissions', '--output-format', 'json'),
    ]);
    expect(run.code).toBe(0);
    const [, child] = JSON.parse(run.stdout).agents;

    expect(readFileSync(join(project(), '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(gitIn(project(), 'rev-parse', 'refs/heads/main')).toBe(mainBefore);
    expect(gitIn(project(), 'rev-parse', 'refs/heads/warren/agent_sibling')).toBe(siblingBefore);
    expect(gitIn(project(), 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(
      readdirSync(join(project(), '.git', 'hooks')).filter((name) => !name.endsWith('.sample')),
    ).toEqual([]);
    expect(
      existsSync(join(project(), '.git', 'packed-refs')) &&
        readFileSync(join(project(), '.git', 'packed-refs'), 'utf8').includes('pwned'),
    ).toBe(false);
    expect(readFileSync(join(project(), 'notes.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(project(), 'other.txt'), 'utf8')).toBe('other\n');
    for (const name of ['new-file.txt', 'copied.txt', 'linked', 'fsmonitor-ran', 'pager-ran']) {
      expect(existsSync(join(project(), name))).toBe(false);
    }
    // What the user's next git command would run, had the config changed.
    expect(gitIn(project(), 'status', '--porcelain')).toBe('');
    expect(existsSync(join(project(), 'fsmonitor-ran'))).toBe(false);

    // The child's own work is on its branch, and the parent is told it changed something.
    expect(child.worktree).toMatchObject({ branch: `warren/${child.agent_id}`, changed: true });
    expect(gitIn(project(), 'log', '-1', '--format=%s', child.worktree.branch)).toBe('child work');
    expect(gitIn(project(), 'show', `${child.worktree.branch}:notes.txt`)).toBe('one\ntwo');
  });
});
