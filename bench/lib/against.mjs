// `--against <git-rev>`: that revision of warren built in a scratch folder outside the checkout
// (git archive, then `npm ci` unless its lockfile is the working tree's, then its own build),
// with this checkout's bench/ copied over it, so both sides run the same adapters and scripts
// and differ only in warren itself. Builds are kept per commit in the OS temp folder.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Builds (or reuses) `rev` and returns where it is: `root` (with dist/ and node_modules/) and
 * `bench` (this checkout's bench, running that build). Throws an Error with a one-line message.
 */
export function prepareAgainst({ rev, root, bench, log }) {
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString()
      .trim();
  let commit;
  try {
    commit = git('rev-parse', '--verify', '--quiet', `${rev}^{commit}`);
  } catch {
    throw new Error(
      `--against: ${rev} is not a commit of this repository (try main, HEAD~3, a sha)`,
    );
  }
  const short = commit.slice(0, 10);
  const dir = path.join(tmpdir(), 'warren-bench-against', commit);
  const marker = path.join(dir, '.built');
  // A build whose node_modules link points into a checkout that is gone is built again.
  if (!existsSync(marker) || !existsSync(path.join(dir, 'node_modules'))) {
    log(`--against ${rev}: building ${short} in ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = spawnSync(
      'sh',
      ['-c', `git archive --format=tar ${commit} | tar -x -C "$1"`, 'sh', dir],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    if (tar.status !== 0)
      throw new Error(`--against: git archive of ${short} failed: ${tar.stderr}`);
    installDependencies({ dir, root, log });
    run('npm', ['run', 'build'], { dir, root, what: `the build of ${short}` });
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  } else {
    log(`--against ${rev}: reusing the build of ${short} in ${dir}`);
  }
  // Always this checkout's bench: the same workload, adapters and checks on both sides.
  const scratchBench = path.join(dir, 'bench');
  rmSync(scratchBench, { recursive: true, force: true });
  cpSync(bench, scratchBench, {
    recursive: true,
    filter: (source) => !/[/\\]\.tmp$|results\.json$/.test(source),
  });
  return { name: `warren@${rev}`, commit: short, root: dir, bench: scratchBench };
}

/** Its own `npm ci`, unless its lockfile is this checkout's: then this checkout's packages. */
function installDependencies({ dir, root, log }) {
  const lock = (folder) => {
    try {
      return readFileSync(path.join(folder, 'package-lock.json'), 'utf8');
    } catch {
      return undefined;
    }
  };
  if (lock(dir) !== undefined && lock(dir) === lock(root)) {
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    return;
  }
  log("  its package-lock.json differs from this checkout's: npm ci (a few minutes)");
  run('npm', ['ci', '--no-audit', '--no-fund'], {
    dir,
    root,
    what: 'npm ci',
  });
}

/** Runs a command in the scratch folder with this checkout's Node first on PATH. */
function run(command, args, { dir, root, what }) {
  const bin = [
    path.dirname(process.execPath),
    path.join(dir, 'node_modules', '.bin'),
    path.join(root, 'node_modules', '.bin'),
  ];
  const result = spawnSync(command, args, {
    cwd: dir,
    env: { ...process.env, PATH: [...bin, process.env.PATH].join(path.delimiter) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    const tail = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-3).join(' / ');
    throw new Error(`--against: ${what} failed in ${dir}: ${tail}`);
  }
}
