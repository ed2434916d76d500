// `warren -p` when things go wrong, as a person or a host sees it: a model server that stops
// answering or fails, signals and kill -9, big trees, bad folders and addresses, a runaway reply.
// Real processes, real files, a loopback model server; runs the built CLI.
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../model/scripted-script.js';
import { type CliRun, runWarren, startWarren } from '../testing/cli-process.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';
import { killIfAlive, processesWith, stillAlive } from '../testing/process-liveness.js';

const cli = useCliSandbox();
const { env, project, sessions, chatRequests } = cli;
/** Processes a test started through Bash; killed after it, should warren have left any. */
const started: number[] = [];

beforeEach(async () => {
  await writeFile(join(project(), 'notes.txt'), 'the answer is 42\n');
});
afterEach(() => {
  killIfAlive(started.splice(0));
});

function warren(args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> {
  return runWarren(args, { env: { ...env(), ...extraEnv }, timeoutMs: 15_000 });
}

/** Flags for a run against the loopback server in the scratch project. */
const against = (...extra: string[]) => cli.againstServer('--cwd', project(), ...extra);

/** Flags for a run on a scripted model whose script is written to the project. */
function scripted(turns: ScriptTurn[], ...extra: string[]): string[] {
  const script = join(project(), 'script.json');
  writeFileSync(script, JSON.stringify({ turns }));
  return [
    '--model',
    `scripted:${script}`,
    '--cwd',
    project(),
    '--session-dir',
    sessions(),
    ...extra,
  ];
}

const lines = (text: string) => text.split('\n').filter(Boolean);

/** What the deaf commands of this file sleep: their command lines, and only theirs, hold it. */
const DEAF_SLEEP = `sleep 600.${process.pid}${Math.floor(Math.random() * 1e6)}`;

/**
 * A Bash command that ignores SIGTERM, starts a sleep and writes a line to `file`. Its `$$`
 * means nothing outside the command sandbox's PID namespace: the host PIDs are found by name.
 */
const deafCommand = (file: string) => `trap "" TERM; ${DEAF_SLEEP} & echo started >> ${file}; wait`;

/** The host PIDs of the deaf commands (each: sandbox, bash, sleep), once `count` have started. */
async function deafPids(file: string, count: number): Promise<number[]> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const pids = processesWith(DEAF_SLEEP);
    if (lines(text).length >= count && pids.length >= 2 * count) {
      started.push(...pids);
      return pids;
    }
    await sleep(20);
  }
}

describe('a model server that stops answering or fails', () => {
  it('retries a request that gets no answer, one stderr line per retry naming the server', async () => {
    cli.server.enqueue({ text: 'never sent', delayMs: 60_000 }, { text: 'Answered at last.' });
    const run = await warren(['-p', 'hello', ...against('--request-timeout', '300')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Answered at last.\n');
    expect(lines(run.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warren: --model openai-compatible:test-model: no answer from ${cli.server.url}/v1 in 0\\.3 s; retry 1 in [\\d.]+ s$`,
        ),
      ),
    ]);
  });

  it('takes the request timeout from WARREN_REQUEST_TIMEOUT_MS', async () => {
    cli.server.enqueue({ text: 'the first words', chunkDelayMs: 60_000 }, { text: 'Whole reply.' });
    const run = await warren(['-p', 'hello', ...against()], { WARREN_REQUEST_TIMEOUT_MS: '300' });
    expect(run).toMatchObject({ code: 0, stdout: 'Whole reply.\n' });
    expect(run.stderr).toMatch(/(in|for) 0\.3 s; retry 1 in/);
  });

  it('is not silent about a 500: the retry is a line on stderr', async () => {
    cli.server.enqueue({ status: 500, errorMessage: 'boom' }, { text: 'Recovered.' });
    const run = await warren(['-p', 'hello', ...against()]);
    expect(run).toMatchObject({ code: 0, stdout: 'Recovered.\n' });
    expect(run.stderr).toMatch(
      new RegExp(
        `^warren: --model openai-compatible:test-model: ${cli.server.url}/v1 answered 500: boom; retry 1 in`,
      ),
    );
  });

  it('says a 400 from an openai-compatible server most likely means tool calling is off', async () => {
    cli.server.enqueue({ status: 400, errorMessage: 'tools are not supported' });
    const run = await warren(['-p', 'hello', ...against()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `warren: --model openai-compatible:test-model: ${cli.server.url}/v1 answered 400: tools are not supported (the server refused the request; most often its tool calling is off: start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>, llama.cpp with --jinja)\n`,
    );
  });

  it('blames a wrong ANTHROPIC_BASE_URL, not the model id, for its 404', async () => {
    const run = await warren(
      ['-p', 'hello', '--model', 'anthropic:claude-sonnet-4-5', '--cwd', project()],
      { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: `${cli.server.url}/wrong` },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `answered 404: .*\\(check ANTHROPIC_BASE_URL: nothing answers at ${cli.server.url}/wrong/v1/messages\\)`,
      ),
    );
    expect(run.stderr).not.toMatch(/model id/);
  });
});

describe('signals: no process a tool started outlives warren', () => {
  const pidFile = () => join(project(), 'pids');
  const deafTurn = () => ({
    toolCalls: [{ name: 'Bash', input: { command: deafCommand(pidFile()) } }],
  });

  // In the sandbox the first signal already ends the command with everything it started (its
  // PID namespace goes); unconfined, a command deaf to SIGTERM needs the second Ctrl-C.
  it.each([
    ['Ctrl-C', ['SIGINT'], 1, []],
    ['a second Ctrl-C, with the sandbox off,', ['SIGINT', 'SIGINT'], 130, ['--no-sandbox']],
    ['SIGTERM', ['SIGTERM'], 1, []],
    ['SIGHUP', ['SIGHUP'], 1, []],
  ] as const)('%s kills a Bash command that ignores SIGTERM', async (_, signals, code, flags) => {
    cli.server.enqueue(deafTurn());
    const run = startWarren(
      [
        '-p',
        'run it',
        ...against('--permission-mode', 'bypassPermissions', '--output-format', 'stream-json'),
        ...flags,
      ],
      { env: env() },
    );
    const pids = await deafPids(pidFile(), 1);
    for (const signal of signals) {
      run.child.kill(signal);
      await sleep(100);
    }
    expect((await run.exited).code).toBe(code);
    expect(await stillAlive(pids)).toEqual([]);
  });
});

describe('stopping a big tree', () => {
  const fanOut = (count: number, child: Omit<ScriptTurn, 'match'>): ScriptTurn[] => [
    {
      match: { prompt: 'ROOT' },
      toolCalls: Array.from({ length: count }, (_, index) => ({
        name: 'Agent',
        input: { description: `child ${index}`, prompt: `CHILD ${index}` },
      })),
    },
    ...Array.from({ length: count }, () => ({ match: { prompt: 'CHILD' }, ...child })),
  ];

  it('ends a 1,000-agent tree on SIGTERM at once, every agent with its result', async () => {
    const turns = fanOut(1000, { text: 'never', delayMs: 600_000 });
    const run = startWarren(
      [
        '-p',
        'ROOT',
        ...scripted(turns, '--max-parallel', '1000', '--output-format', 'stream-json'),
      ],
      { env: env() },
    );
    await run.waitForLine(
      () => run.lines.filter((line) => line.type === 'agent_start').length === 1000,
    );
    const stopping = Date.now();
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    const stopMs = Date.now() - stopping;

    expect(code).toBe(1);
    // A guard against hanging, not a timing: it takes about a second even on a loaded 2-core
    // machine, and used to take ~5 s when every sidechain was fsynced on the way out.
    expect(stopMs).toBeLessThan(10_000);
    const result = run.lines.at(-1) as { type: string; agents: Array<{ status: string }> };
    expect(result.type).toBe('result');
    expect(result.agents).toHaveLength(1001);
    expect(new Set(result.agents.map((agent) => agent.status))).toEqual(new Set(['cancelled']));
    expect(run.lines.filter((line) => line.type === 'agent_end')).toHaveLength(1000);
  }, 60_000);

  it('gives every agent its status, agent_end and result record when its tools ignore SIGTERM', async () => {
    const pidFile = join(project(), 'pids');
    const turns = fanOut(5, {
      toolCalls: [{ name: 'Bash', input: { command: deafCommand(pidFile) } }],
    });
    const run = startWarren(
      [
        '-p',
        'ROOT',
        ...scripted(
          turns,
          '--permission-mode',
          'bypassPermissions',
          '--output-format',
          'stream-json',
        ),
      ],
      { env: env() },
    );
    const pids = await deafPids(pidFile, 5);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(1);

    const ends = run.lines.filter((line) => line.type === 'agent_end');
    expect(ends.map((line) => line.status)).toEqual(Array(5).fill('cancelled'));
    const result = run.lines.at(-1) as { agents: Array<{ status: string; transcript: string }> };
    expect(result.agents.map((agent) => agent.status)).toEqual(Array(6).fill('cancelled'));
    for (const agent of result.agents) {
      const records = lines(readFileSync(agent.transcript, 'utf8')).map((line) => JSON.parse(line));
      expect(records.at(-1)).toMatchObject({ type: 'result', status: 'cancelled' });
    }
    expect(await stillAlive(pids)).toEqual([]);
  });

  it('closes each agent’s transcript when it ends: 2,000 children under ulimit -n 256', async () => {
    const turns: ScriptTurn[] = [
      ...fanOut(2000, { text: 'done' }),
      { match: { prompt: 'ROOT' }, text: 'All 2000 children are done.' },
    ];
    const run = startWarren(
      ['-p', 'ROOT', ...scripted(turns, '--max-parallel', '1', '--output-format', 'json')],
      { env: env(), shell: 'ulimit -n 256 && exec "$@"' },
    );
    const { code, stderr } = await run.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = run.lines[0] as { result: string; agents: unknown[] };
    expect(result.result).toBe('All 2000 children are done.');
    expect(result.agents).toHaveLength(2001);
  }, 120_000);
});

describe('crash safety', () => {
  it('resumes with the result of a call that finished before kill -9, not "interrupted"', async () => {
    const pidFile = join(project(), 'pids');
    cli.server.enqueue({
      toolCalls: [
        { name: 'Read', input: { file_path: 'notes.txt' } },
        { name: 'Bash', input: { command: deafCommand(pidFile) } },
      ],
    });
    const run = startWarren(
      ['-p', 'look', ...against('--allowed-tools', 'Bash', '--output-format', 'stream-json')],
      { env: env() },
    );
    await run.waitForLine((line) => line.type === 'tool_result' && line.tool_name === 'Read');
    await deafPids(pidFile, 1);
    run.child.kill('SIGKILL');
    await run.exited;
    const sessionId = String(run.lines[0]?.session_id);

    cli.server.enqueue({ text: 'The notes say 42.' });
    const resumed = await warren(['-p', 'go on', ...against('--resume', sessionId)]);
    expect(resumed.code).toBe(0);
    const { messages } = chatRequests().at(-1)!.body as {
      messages: Array<{ role: string; content: string }>;
    };
    const results = messages.filter((message) => message.role === 'tool');
    expect(results[0]?.content).toContain('the answer is 42');
    expect(results[1]?.content).toMatch(/^Interrupted/);
    expect(lines(resumed.stderr)).toEqual([
      expect.stringMatching(/tool call Bash .* has no result/),
    ]);
  });
});

describe('bad folders and addresses: exit 2, one line, no stack trace, no secret', () => {
  const model = ['--model', 'openai:gpt-4.1'];
  const keyEnv = { OPENAI_API_KEY: 'sk-test-key' };

  it.each([
    ['a folder under /proc', '/proc/warren-test/sessions', /cannot create \/proc\/warren-test/],
    ['/proc itself', '/proc', /cannot write a transcript there/],
    ['a file', 'FILE', /is not a directory/],
    ['/dev/null', '/dev/null', /\/dev\/null is not a directory/],
    ['a path through a file', 'FILE/sessions', /is not a directory/],
  ])('--session-dir: %s', async (_, dir, problem) => {
    const file = join(project(), 'a-file');
    await writeFile(file, 'not a folder');
    const sessionDir = dir.replace('FILE', file);
    const run = await warren(['-p', 'x', ...model, '--session-dir', sessionDir], keyEnv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(`^warren: --session-dir ${sessionDir.replaceAll('/', '\\/')}: `),
    );
    expect(run.stderr).toMatch(problem);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['--base-url', ['--base-url', 'http://admin:hunter22@127.0.0.1:9999/v1'], {}],
    ['WARREN_BASE_URL', [], { WARREN_BASE_URL: 'http://admin:hunter22@127.0.0.1:9999/v1' }],
  ])('%s with a user and password', async (where, flags, extraEnv) => {
    const run = await warren(['-p', 'x', '--model', 'openai-compatible:m', ...flags], extraEnv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^warren: ${where} http://<credentials>@127\\.0\\.0\\.1:9999/v1: holds a user name or password`,
      ),
    );
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stdout + run.stderr).not.toMatch(/admin|hunter22/);
  });
});

describe('a runaway reply', () => {
  it('is cut at the size cap with a clear error, and never held whole: 300 MB', async () => {
    const piece = 'x'.repeat(64 * 1024);
    cli.server.enqueue({ text: [piece], repeat: 4800 });
    const run = startWarren(['-p', 'talk', ...against()], { env: env() });
    let peakRssKb = 0;
    const sampling = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${run.child.pid}/status`, 'utf8');
        peakRssKb = Math.max(peakRssKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
      } catch {
        // exited between two samples
      }
    }, 20);
    const { code, stderr } = await run.exited.finally(() => clearInterval(sampling));

    expect(code).toBe(1);
    expect(stderr).toBe(
      `warren: --model openai-compatible:test-model: the reply from ${cli.server.url}/v1 was larger than 64 MiB and was cut off there (the model ran away or the server is broken; lower maxOutputTokens, or check the server)\n`,
    );
    expect(chatRequests()[0]?.responseBytes).toBeLessThan(100 * 1024 * 1024);
    expect(peakRssKb).toBeLessThan(1024 * 1024);
  }, 60_000);
});
