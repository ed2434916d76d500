import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isReadOnlyCall } from '../core/tool.js';
import { useOutsideSandbox } from '../testing/hostile/outside-sandbox.js';
import {
  isErrorOutput,
  outputText,
  testToolContext,
  useToolSandbox,
} from '../testing/tool-context.js';
import { bashTool, readOnlyBashTool } from './bash.js';

const { dir, ctx } = useToolSandbox();

/** Alive and not a zombie waiting to be reaped: kill(pid, 0) alone counts zombies as alive. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined ? process.platform !== 'linux' : stat.split(') ')[1]?.[0] !== 'Z';
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await delay(50);
  }
  return false;
}

/** Runs a command that records the pid of a `sleep` grandchild in pid.txt. */
const sleeperCommand = 'bash -c "sleep 300 & echo \\$! > pid.txt; wait"; echo done';

async function sleeperPid(): Promise<number> {
  const file = path.join(dir(), 'pid.txt');
  const written = await waitUntil(
    async () => (await readFile(file, 'utf8').catch(() => '')).trim() !== '',
  );
  if (!written) throw new Error('the command never wrote pid.txt');
  return Number((await readFile(file, 'utf8')).trim());
}

describe('Bash', () => {
  it('runs the command in the working directory and returns its output', async () => {
    expect(await bashTool.call({ command: 'pwd && echo hi' }, ctx())).toBe(`${dir()}\nhi`);
  });

  it('returns stdout and stderr together, in the order they were written', async () => {
    const result = await bashTool.call(
      { command: 'echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three' },
      ctx(),
    );
    expect(result).toBe('one\ntwo\nthree');
  });

  it('reports a non-zero exit as an error with the exit code and the output', async () => {
    const result = await bashTool.call({ command: 'echo partial; echo oops >&2; exit 3' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('partial\noops');
    expect(outputText(result)).toContain('Exit code 3');
  });

  it('says when a command printed nothing', async () => {
    expect(await bashTool.call({ command: 'true' }, ctx())).toBe('(no output)');
  });

  it('streams output as progress while the command runs', async () => {
    const chunks: string[] = [];
    await bashTool.call(
      { command: 'echo first; sleep 0.2; echo second' },
      { ...ctx(), progress: (text) => chunks.push(text) },
    );
    expect(chunks.join('')).toBe('first\nsecond\n');
    expect(chunks.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the head and tail of long output and says how much was left out', async () => {
    const result = outputText(await bashTool.call({ command: 'seq 1 100000' }, ctx()));
    expect(result.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.endsWith('99999\n100000')).toBe(true);
    expect(result).toMatch(/\[\d+ characters of output omitted\]/);
    expect(result.length).toBeLessThan(31_000);
  });

  it('stops a command at its timeout, grandchildren included, and says so', async () => {
    const running = bashTool.call({ command: sleeperCommand, timeout: 1_000 }, ctx());
    const pid = await sleeperPid();
    const result = await running;
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('timed out after 1000 ms');
    expect(await waitUntil(async () => !(await isRunning(pid)))).toBe(true);
  });

  it('kills the whole process group when the call is cancelled', async () => {
    const controller = new AbortController();
    const running = bashTool.call(
      { command: sleeperCommand },
      { ...ctx(), signal: controller.signal },
    );
    const pid = await sleeperPid();
    expect(await isRunning(pid)).toBe(true);
    controller.abort();
    const result = await running;
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('cancelled');
    expect(outputText(result)).not.toContain('done');
    expect(await waitUntil(async () => !(await isRunning(pid)))).toBe(true);
  });

  it('kills a process that ignores SIGTERM after the grace period', async () => {
    const controller = new AbortController();
    const command = `bash -c 'trap "" TERM; echo $$ > pid.txt; while true; do sleep 0.1; done'`;
    const running = bashTool.call({ command }, { ...ctx(), signal: controller.signal });
    const pid = await sleeperPid();
    controller.abort();
    await running;
    expect(await waitUntil(async () => !(await isRunning(pid)))).toBe(true);
  });

  it('stops background jobs that keep the output open, and explains how to keep them', async () => {
    const result = outputText(
      await bashTool.call({ command: 'sleep 300 & echo $! > pid.txt; echo started' }, ctx()),
    );
    expect(result).toContain('started');
    expect(result).toContain('> log 2>&1 &');
    const pid = Number((await readFile(path.join(dir(), 'pid.txt'), 'utf8')).trim());
    expect(await waitUntil(async () => !(await isRunning(pid)))).toBe(true);
  });

  it('does not run at all when the call is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await bashTool.call(
      { command: 'touch ran.txt' },
      { ...ctx(), signal: controller.signal },
    );
    expect(isErrorOutput(result)).toBe(true);
    expect(await readFile(path.join(dir(), 'ran.txt')).catch(() => 'absent')).toBe('absent');
  });

  it('does not count reading outside the allowed directories as read-only', () => {
    const scope = { cwd: dir(), allowedDirs: [dir()] };
    expect(
      isReadOnlyCall(bashTool, { command: `cat ${path.join(dir(), 'a.txt')} src/b.ts` }, scope),
    ).toBe(true);
    expect(isReadOnlyCall(bashTool, { command: 'cat /etc/hostname' }, scope)).toBe(false);
    expect(isReadOnlyCall(bashTool, { command: 'ls ../..' }, scope)).toBe(false);
    expect(isReadOnlyCall(bashTool, { command: 'cat ~/.ssh/id_rsa' }, scope)).toBe(false);
    expect(isReadOnlyCall(bashTool, { command: 'echo $OPENAI_API_KEY' }, scope)).toBe(false);
    expect(isReadOnlyCall(bashTool, { command: 'grep --file=/etc/passwd x' }, scope)).toBe(false);
    expect(isReadOnlyCall(bashTool, { command: 'printenv' }, scope)).toBe(false);
  });

  it('counts as read-only only for clearly read-only commands, and is matched by its command', () => {
    const scope = { cwd: dir(), allowedDirs: [dir()] };
    expect(isReadOnlyCall(bashTool, { command: 'git status && ls -la' }, scope)).toBe(true);
    expect(isReadOnlyCall(bashTool, { command: 'rm -rf build' }, scope)).toBe(false);
    expect(bashTool.isConcurrencySafe).toBe(false);
    expect(bashTool.permissionSubject?.({ command: 'npm test' }, { cwd: dir() })).toBe('npm test');
  });
});

describe('read-only Bash', () => {
  it('runs read-only commands', async () => {
    expect(await readOnlyBashTool.call({ command: 'echo hi | wc -l' }, ctx())).toBe('1');
  });

  it('refuses any other command with the reason, without running it', async () => {
    const result = await readOnlyBashTool.call({ command: 'echo hi > made.txt' }, ctx());
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toContain('redirects output to a file');
    expect(await readFile(path.join(dir(), 'made.txt')).catch(() => 'absent')).toBe('absent');
  });

  it('is presented to the model as Bash', () => {
    expect(readOnlyBashTool.name).toBe('Bash');
    expect(readOnlyBashTool.isReadOnly).toBe(true);
  });
});

describe('read-only Bash, as explore and plan children get it', () => {
  const sandbox = useOutsideSandbox();
  const run = async (command: string) =>
    readOnlyBashTool.call({ command }, testToolContext({ cwd: sandbox().project }));

  it.each([
    'cat link_file',
    'grep -R CANARY .',
    'cat {../outside/canary.txt,a.js}',
    'cat < ../outside/canary.txt',
    'jq -n env',
    'env',
  ])('refuses %s, says why, and shows nothing of the outside', async (command) => {
    const result = await run(command);
    expect(isErrorOutput(result)).toBe(true);
    expect(outputText(result)).toMatch(/^Refused: this agent may only run read-only commands/);
    expect(outputText(result)).not.toContain(sandbox().secret);
  });

  it('runs a read-only command inside the project', async () => {
    expect(await run('cat a.js && grep -r CANARY . || echo none')).toBe('console.log("a");\nnone');
  });
});
