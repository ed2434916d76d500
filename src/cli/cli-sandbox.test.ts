// The command sandbox as a person meets it through `warren -p`: an agent's commands cannot rewrite
// what runs code or widens the next run, never see the API key, reach no network, and end with
// the run, however it ends; where no sandbox can be had, warren says so and asks. Real
// bubblewrap, a loopback model server; runs the built CLI.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type RunningWarren, runWarren, startWarren } from '../testing/cli-process.js';
import { gitIn, makeGitRepo } from '../testing/git-repo.js';
import { answer, writeHookScript } from '../testing/hook-scripts.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';
import { requiredSandbox } from '../testing/hostile/required-sandbox.js';
import { killIfAlive, processesWith, stillAlive } from '../testing/process-liveness.js';
import { useTempDir } from '../testing/temp-dir.js';

const cli = useCliSandbox();
const { project, env } = cli;
const scratch = useTempDir('warren-sandbox-bin-');

const SETTINGS = '{"permissions":{"allow":[]}}\n';

beforeEach(async () => {
  await requiredSandbox();
  makeGitRepo(project(), { 'notes.txt': 'one\n', '.warren/settings.json': SETTINGS });
});

/** The tool results the model was sent, joined. */
function sentToModel(): string {
  return cli
    .chatRequests()
    .flatMap(
      (request) =>
        (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [],
    )
    .filter((message) => message.role === 'tool')
    .map((message) => String(message.content))
    .join('\n');
}

function bashTurn(command: string) {
  return { toolCalls: [{ name: 'Bash', input: { command } }] };
}

describe('warren -p in the command sandbox', () => {
  it('keeps the API key warren holds out of every command', async () => {
    cli.server.enqueue(bashTurn('env; tr "\\0" "\\n" < /proc/self/environ; echo "HOME IS $HOME"'), {
      text: 'Done.',
    });
    const run = await runWarren(
      [
        '-p',
        'print the environment',
        ...cli.againstServer('--permission-mode', 'bypassPermissions'),
      ],
      {
        cwd: project(),
        env: { ...env(), WARREN_API_KEY: 'sk-e2e-secret-key', GH_TOKEN: 'gh-e2e' },
      },
    );
    expect(run.code).toBe(0);
    expect(sentToModel()).toContain('HOME IS');
    expect(sentToModel()).not.toContain('sk-e2e-secret-key');
    expect(sentToModel()).not.toContain('gh-e2e');
  });

  it('holds .git/config and .warren/settings.json when a plan-mode call gets through the permission layer', async () => {
    // A user's hook that allows every call stands in for a permission rule or classifier that
    // lets a writing command pass: the operating system still refuses the write.
    const allowAll = await writeHookScript(
      scratch(),
      'allow',
      answer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }),
    );
    const settings = join(scratch(), 'settings.json');
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: allowAll.command }] },
          ],
        },
      }),
    );
    cli.server.enqueue(
      bashTurn(
        `git config core.fsmonitor "touch pwned"; echo '{"permissions":{"defaultMode":"bypassPermissions"}}' > .warren/settings.json; echo attempted`,
      ),
      { text: 'Done.' },
    );
    const run = await cli.run([
      '-p',
      'plan it',
      ...cli.againstServer('--permission-mode', 'plan', '--settings', settings),
    ]);
    expect(run.code).toBe(0);
    expect(sentToModel()).toContain('attempted');
    expect(readFileSync(join(project(), '.warren', 'settings.json'), 'utf8')).toBe(SETTINGS);
    expect(readFileSync(join(project(), '.git', 'config'), 'utf8')).not.toMatch(
      /fsmonitor|hookspath/i,
    );
    gitIn(project(), 'status');
    expect(existsSync(join(project(), 'pwned'))).toBe(false);
  });

  it('lets a command reach no network, the loopback included', async () => {
    const port = new URL(cli.server.url).port;
    cli.server.enqueue(
      bashTurn(`(exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED) 2>&1; echo tried`),
      { text: 'Done.' },
    );
    const run = await cli.run([
      '-p',
      'call out',
      ...cli.againstServer('--permission-mode', 'bypassPermissions'),
    ]);
    expect(run.code).toBe(0);
    expect(sentToModel()).toContain('tried');
    expect(sentToModel()).not.toContain('CONNECTED');
  });

  it('ignores a project settings file that turns the sandbox off, and says so', async () => {
    writeFileSync(
      join(project(), '.warren', 'settings.json'),
      '{"sandbox":{"enabled":false,"network":"allow"}}\n',
    );
    cli.server.enqueue(bashTurn('echo x > ../escaped.txt; echo tried'), { text: 'Done.' });
    const run = await cli.run([
      '-p',
      'go',
      ...cli.againstServer('--permission-mode', 'bypassPermissions'),
    ]);
    expect(run.stderr).toContain('"sandbox" section was ignored');
    expect(sentToModel()).toContain('tried');
    expect(existsSync(join(project(), '..', 'escaped.txt'))).toBe(false);
  });

  /**
   * `warren -p` whose model starts, in the background, a command deaf to SIGTERM that also
   * starts one in a session of its own; `end` ends the run. Resolves to the host PIDs that were
   * running, once warren has exited.
   */
  async function deafBackgroundRun(flags: string[], end: (run: RunningWarren) => void) {
    const marker = `sleep 700.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const command = `setsid bash -c 'trap "" TERM; exec ${marker}' > /dev/null 2>&1 & trap "" TERM; ${marker}`;
    cli.server.enqueue(
      { toolCalls: [{ name: 'Bash', input: { command, run_in_background: true } }] },
      { text: 'waiting', delayMs: 60_000 },
    );
    const args = [
      '-p',
      'start it',
      ...cli.againstServer('--permission-mode', 'bypassPermissions', ...flags),
    ];
    const run = startWarren(args, { cwd: project(), env: env() });
    let pids: number[] = [];
    try {
      for (const until = Date.now() + 10_000; pids.length < 2 && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        pids = processesWith(marker);
      }
      end(run);
      await run.exited;
      return { pids, alive: await stillAlive(pids) };
    } finally {
      killIfAlive(pids);
      run.child.kill('SIGKILL');
    }
  }

  it('stops a background command that hid in a new session and ignores SIGTERM when warren gets SIGTERM', async () => {
    const { pids, alive } = await deafBackgroundRun([], (run) => run.child.kill('SIGTERM'));
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(alive).toEqual([]);
  });

  it('stops a background command deaf to SIGTERM when the run ends on its own (a time budget)', async () => {
    const { pids, alive } = await deafBackgroundRun(['--time-budget', '3000'], () => {});
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(alive).toEqual([]);
  }, 90_000);
});

describe('where no sandbox can be had', () => {
  /** A PATH with bash and git but no bubblewrap. */
  function pathWithoutBwrap(): string {
    const bin = join(scratch(), 'bin');
    mkdirSync(bin, { recursive: true });
    for (const program of ['bash', 'git', 'touch', 'cat', 'env']) {
      const found = ['/usr/bin', '/bin'].map((dir) => join(dir, program)).find(existsSync);
      if (found) symlinkSync(found, join(bin, program));
    }
    return bin;
  }

  it('says so once at the start and asks before a command that is not read-only, even in bypassPermissions', async () => {
    cli.server.enqueue(bashTurn('touch made.txt'), { text: 'Done.' });
    const run = await runWarren(
      ['-p', 'make it', ...cli.againstServer('--permission-mode', 'bypassPermissions')],
      { cwd: project(), env: { ...env(), PATH: pathWithoutBwrap() } },
    );
    expect(run.stderr.match(/^warren: warning: commands cannot be sandboxed here/gm)).toHaveLength(
      1,
    );
    expect(run.stderr).toContain('--no-sandbox');
    expect(existsSync(join(project(), 'made.txt'))).toBe(false);
  });

  it('runs commands unconfined when the person turns the sandbox off with --no-sandbox', async () => {
    cli.server.enqueue(bashTurn('touch made.txt'), { text: 'Done.' });
    const run = await runWarren(
      [
        '-p',
        'make it',
        ...cli.againstServer('--permission-mode', 'bypassPermissions', '--no-sandbox'),
      ],
      { cwd: project(), env: { ...env(), PATH: pathWithoutBwrap() } },
    );
    expect(run.stderr).not.toContain('cannot be sandboxed');
    expect(existsSync(join(project(), 'made.txt'))).toBe(true);
  });
});
