// The worktree scenario, run as its own process: in a scratch repository of `files` files, time
// warren's worktree create + finish (unchanged, so removed) against git's own `git worktree add`
// alone and `git worktree add` + `git worktree remove`: git's cost is the floor warren builds on.
// Prints `RESULT <json>` like the workers do.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = new URL('../../dist/', import.meta.url);
const { createWorktree } = await import(new URL('isolation/create-worktree.js', dist));
const { finishWorktree } = await import(new URL('isolation/finish-worktree.js', dist));

const { files, cycles } = JSON.parse(process.argv[2] ?? '{"files":1000,"cycles":15}');
const scratch = mkdtempSync(path.join(tmpdir(), 'warren-bench-worktree-'));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (...args) => execFileSync('git', args, { cwd: scratch, env, stdio: 'pipe' });

/** A repository of `files` small source files in 20 folders, one commit. */
function makeRepository() {
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@example.com');
  for (let index = 0; index < files; index++) {
    const dir = path.join(scratch, 'src', `module-${index % 20}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `file-${index}.ts`), `export const value${index} = ${index};\n`);
  }
  git('add', '--all');
  git('commit', '--quiet', '-m', 'files');
}

const time = async (work) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

try {
  makeRepository();
  const samples = [];
  // One untimed round warms the file cache and git's own start-up.
  for (let round = -1; round < cycles; round++) {
    const raw = path.join(scratch, '.git', `raw-${round + 1}`);
    const gitAddMs = await time(() =>
      git('worktree', 'add', '--quiet', '-b', `raw/${round + 1}`, raw, 'HEAD'),
    );
    const gitRemoveMs = await time(() => git('worktree', 'remove', '--force', raw));
    git('branch', '-D', '--quiet', `raw/${round + 1}`);
    let worktree;
    const createMs = await time(async () => {
      worktree = await createWorktree({
        cwd: scratch,
        agentId: `agent_bench${round + 1}`,
        parentId: null,
        agentType: 'bench',
        description: 'bench',
      });
    });
    let outcome;
    const finishMs = await time(async () => {
      outcome = await finishWorktree(worktree, { description: 'bench' });
    });
    if (outcome.kept) throw new Error(`an unchanged worktree was kept: ${outcome.problem}`);
    if (round >= 0) {
      samples.push({
        cycleMs: createMs + finishMs,
        createMs,
        finishMs,
        gitAddMs,
        gitAddRemoveMs: gitAddMs + gitRemoveMs,
      });
    }
  }
  console.log(`RESULT ${JSON.stringify({ ok: true, samples })}`);
} catch (error) {
  console.log(`RESULT ${JSON.stringify({ ok: false, error: String(error?.stack ?? error) })}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
