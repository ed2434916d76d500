// One command hook as a process: its input on stdin, its exit code and output, and that it is
// stopped with everything it started when it runs too long or the run is cancelled.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { writeHookScript } from '../testing/hook-scripts.js';
import { useTempDir } from '../testing/temp-dir.js';
import { MAX_HOOK_OUTPUT_BYTES, runCommandHook } from './command-hook.js';

const dir = useTempDir('warren-command-hook-');

const run = (command: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  runCommandHook({
    command,
    input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }),
    cwd: dir(),
    env: { ...process.env, MARK: 'set' },
    timeoutMs: extra.timeoutMs ?? 10_000,
    signal: extra.signal ?? new AbortController().signal,
  });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A hook that starts a grandchild which would outlive it, writes its pid, then hangs. */
async function hangingWithGrandchild(): Promise<{ command: string; grandchildPid: () => number }> {
  const pidFile = path.join(dir(), 'grandchild.pid');
  const script = await writeHookScript(
    dir(),
    'hang',
    `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
setInterval(() => {}, 1000);`,
  );
  return {
    command: script.command,
    grandchildPid: () => Number(readFileSync(pidFile, 'utf8')),
  };
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await delay(20);
  }
}

describe('a command hook', () => {
  it('reads the event on stdin, in its cwd and environment, and reports exit code and output', async () => {
    const script = await writeHookScript(
      dir(),
      'echo',
      `process.stdout.write(input.tool_name + ' ' + process.cwd() + ' ' + process.env.MARK);
process.stderr.write('note');
process.exit(3);`,
    );
    expect(await run(script.command)).toEqual({
      exitCode: 3,
      stdout: `Bash ${dir()} set`,
      stderr: 'note',
      outputCut: false,
    });
  });

  it('that hangs is stopped at its timeout, with the processes it started', async () => {
    const hook = await hangingWithGrandchild();
    const started = Date.now();
    const result = await run(hook.command, { timeoutMs: 500 });
    expect(result).toEqual({ problem: 'it did not finish within 0.5 s and was stopped' });
    expect(Date.now() - started).toBeLessThan(3000);
    await waitFor(() => !alive(hook.grandchildPid()));
  });

  it('is stopped with what it started when the run is cancelled', async () => {
    const hook = await hangingWithGrandchild();
    const controller = new AbortController();
    const running = run(hook.command, { signal: controller.signal });
    await waitFor(() => existsSync(path.join(dir(), 'grandchild.pid')));
    controller.abort();
    expect(await running).toEqual({ problem: 'the run was cancelled' });
    await waitFor(() => !alive(hook.grandchildPid()));
  });

  it('keeps no more than the cap of what it prints, and says so', async () => {
    const script = await writeHookScript(
      dir(),
      'loud',
      `process.stdout.write('x'.repeat(${MAX_HOOK_OUTPUT_BYTES + 1000}));`,
    );
    const result = await run(script.command);
    expect(result).toMatchObject({ exitCode: 0, outputCut: true });
    expect(result.problem === undefined && result.stdout.length).toBe(MAX_HOOK_OUTPUT_BYTES);
  });

  it('that ignores its stdin still runs', async () => {
    expect(await run('exit 0')).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('that cannot start is a problem, not a throw', async () => {
    const result = await runCommandHook({
      command: 'true',
      input: '{}',
      cwd: path.join(dir(), 'missing'),
      env: process.env,
      timeoutMs: 1000,
      signal: new AbortController().signal,
    });
    expect(result.problem).toMatch(/could not be started/);
  });
});
