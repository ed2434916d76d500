// The command sandbox, through the Bash tool with real bubblewrap: what a command may write, read
// and reach, which variables it sees, and that nothing it starts outlives it.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandSandbox } from '../core/command-sandbox.js';
import type { ToolContext } from '../core/tool.js';
import { requiredSandbox } from '../testing/hostile/required-sandbox.js';
import {
  isGoneWithin,
  killIfAlive,
  processesWith,
  stillAlive,
} from '../testing/process-liveness.js';
import { useTempDir } from '../testing/temp-dir.js';
import { outputText, testToolContext } from '../testing/tool-context.js';
import { bashTool, readOnlyBashTool } from '../tools/bash.js';

const dir = useTempDir();
let sandbox: CommandSandbox;
let project: string;
let outside: string;

beforeEach(async () => {
  sandbox = await requiredSandbox();
  project = path.join(dir(), 'project');
  outside = path.join(dir(), 'outside');
  await mkdir(path.join(project, '.git', 'hooks'), { recursive: true });
  await mkdir(path.join(project, '.warren'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(project, '.git', 'config'), '[core]\n');
  await writeFile(path.join(project, '.warren', 'settings.json'), '{}\n');
  await writeFile(path.join(outside, 'canary.txt'), 'outside\n');
});

function ctx(overrides: Partial<ToolContext> = {}): ToolContext {
  return testToolContext({ cwd: project, sandbox, ...overrides });
}

async function run(command: string, context = ctx()): Promise<string> {
  return outputText(await bashTool.call({ command }, context));
}

describe('the command sandbox', () => {
  it('lets a command write its working directory and nothing outside it', async () => {
    const output = await run(
      'echo made > made.txt; echo changed > ../outside/canary.txt; echo new > ../outside/new.txt; cat made.txt',
    );
    expect(output).toContain('made');
    expect(output).toMatch(/Read-only file system|No such file/);
    expect(await readFile(path.join(outside, 'canary.txt'), 'utf8')).toBe('outside\n');
    await expect(readFile(path.join(outside, 'new.txt'), 'utf8')).rejects.toThrow();
  });

  it("keeps git's config and hooks and warren's settings read-only inside the working directory", async () => {
    await run(
      'git config core.fsmonitor "touch pwned"; echo "#!/bin/sh" > .git/hooks/pre-commit; echo \'{"permissions":{"defaultMode":"bypassPermissions"}}\' > .warren/settings.json',
    );
    expect(await readFile(path.join(project, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(await readFile(path.join(project, '.warren', 'settings.json'), 'utf8')).toBe('{}\n');
    await expect(readFile(path.join(project, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
  });

  it('lets a command judged read-only write nothing but its private /tmp', async () => {
    // `find -fprint` passes for a reader to a careless eye; the sandbox holds whatever it does.
    const output = outputText(await readOnlyBashTool.call({ command: 'ls -a' }, ctx()));
    expect(output).toContain('.warren');
    const wrote = await run('touch /tmp/scratch && echo tmp-ok');
    expect(wrote).toContain('tmp-ok');
    const launch = await sandbox.launch({ command: 'touch x', cwd: project, writableDirs: [] });
    const result = spawnText(launch.file, launch.args, launch.env, project);
    expect(result).toContain('Read-only file system');
  });

  it('gives a command no API key, and passes named variables through when asked', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-secret-1';
    process.env.GITHUB_TOKEN = 'ghp-secret-2';
    try {
      const output = await run('env');
      expect(output).not.toContain('sk-ant-secret-1');
      expect(output).not.toContain('ghp-secret-2');
      const passing = await requiredSandbox({ passEnv: ['GITHUB_TOKEN'] });
      expect(await run('echo "$GITHUB_TOKEN"', ctx({ sandbox: passing }))).toContain(
        'ghp-secret-2',
      );
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
      delete process.env.GITHUB_TOKEN;
    }
  });

  it('lets a command write the extra folders the user named, unless it was judged read-only', async () => {
    const cache = path.join(dir(), 'cache');
    await mkdir(cache);
    const withCache = await requiredSandbox({ writable: [cache] });
    await run(`echo cached > ${cache}/a`, ctx({ sandbox: withCache }));
    expect(await readFile(path.join(cache, 'a'), 'utf8')).toBe('cached\n');
    const readOnly = await withCache.launch({
      command: `echo again > ${cache}/b`,
      cwd: project,
      writableDirs: [],
    });
    spawnText(readOnly.file, readOnly.args, readOnly.env, project);
    await expect(readFile(path.join(cache, 'b'), 'utf8')).rejects.toThrow('ENOENT');
  });

  it('runs although an allowed folder does not exist yet', async () => {
    const memory = path.join(dir(), 'memory-not-made');
    expect(await run('echo ran', ctx({ allowedDirs: [project, memory] }))).toBe('ran');
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    beforeEach(async () => {
      server = createServer((socket) => socket.end('hello from the host\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterEach(() => {
      server.close();
    });

    it('reaches no network by default, not even the loopback of the host', async () => {
      const output = await run(`cat < /dev/tcp/127.0.0.1/${port}`);
      expect(output).not.toContain('hello from the host');
    });

    it('reaches the network when the settings allow it', async () => {
      const open = await requiredSandbox({ network: 'allow' });
      const output = await run(`cat < /dev/tcp/127.0.0.1/${port}`, ctx({ sandbox: open }));
      expect(output).toContain('hello from the host');
    });
  });

  it('ends whatever a command started when it is stopped, even what hid in a new session and ignores SIGTERM', async () => {
    const marker = `sleep ${900_000 + Math.floor(Math.random() * 9_999)}`;
    const stop = new AbortController();
    const call = bashTool.call(
      { command: `setsid bash -c 'trap "" TERM; exec ${marker}' > /dev/null 2>&1 & sleep 60` },
      ctx({ signal: stop.signal }),
    );
    const pids = await waitForPids(marker);
    try {
      expect(pids).not.toEqual([]);
      stop.abort();
      expect(outputText(await call)).toContain('cancelled');
      for (const pid of pids) expect(await isGoneWithin(pid, 3000)).toBe(true);
    } finally {
      killIfAlive(pids);
    }
  });

  it('ends what a command left running in the background when the command ends', async () => {
    const marker = `sleep ${800_000 + Math.floor(Math.random() * 9_999)}`;
    await run(`setsid bash -c 'trap "" TERM; exec ${marker}' > /dev/null 2>&1 & sleep 0.3`);
    // The PID namespace is torn down as the command ends: its last process is gone within moments.
    expect(await stillAlive(processesWith(marker))).toEqual([]);
  });
});

describe('a linked worktree in the sandbox', () => {
  it('commits on its own branch, and pointing HEAD at the user’s branch earns it nothing', async () => {
    const repo = path.join(dir(), 'repo');
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
    await mkdir(repo);
    git(repo, 'init', '--quiet', '--initial-branch=main');
    git(
      repo,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'first',
    );
    const worktree = path.join(repo, '.warren', 'worktrees', 'agent_a1');
    git(repo, 'worktree', 'add', '-q', '-b', 'warren/agent_a1', worktree);
    const main = git(repo, 'rev-parse', 'main');
    const inWorktree = (command: string) =>
      run(command, ctx({ cwd: worktree, allowedDirs: [worktree] }));
    const commit =
      'git -c user.name=t -c user.email=t@x commit -q --allow-empty -m work && echo COMMITTED';

    expect(await inWorktree(commit)).toContain('COMMITTED');
    expect(git(repo, 'log', '-1', '--format=%s', 'warren/agent_a1')).toBe('work');
    await inWorktree('git symbolic-ref HEAD refs/heads/main');
    expect(await inWorktree(commit)).toContain('Read-only file system');
    expect(git(repo, 'rev-parse', 'main')).toBe(main);
  });
});

function spawnText(file: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): string {
  try {
    return execFileSync(file, args, { env, cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
}

async function waitForPids(commandLine: string): Promise<number[]> {
  for (const end = Date.now() + 5000; Date.now() < end; await delay(25)) {
    const pids = processesWith(commandLine);
    if (pids.length > 0) return pids;
  }
  return [];
}
