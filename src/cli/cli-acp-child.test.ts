import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContentBlock, methods } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWarren, startAcpWarren } from '../testing/acp-client.js';
import { homeEnv, jsonLines, runWarren, WARREN_BIN } from '../testing/cli-process.js';
import { makeGitRepo } from '../testing/git-repo.js';
import { processesWith, stillAlive } from '../testing/process-liveness.js';
import { useTempDir } from '../testing/temp-dir.js';

const HOSTILE_AGENT = fileURLToPath(
  new URL('../testing/fixtures/hostile-acp-agent.mjs', import.meta.url),
);
const home = useTempDir('warren-acp-child-home-');
const project = useTempDir('warren-acp-child-project-');
let running: AcpWarren | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A `kind: acp` definition whose agent is `warren acp` itself, on its own script. */
async function innerAgent(
  where: string,
  innerTurns: unknown[],
  extraLines: string[] = [],
): Promise<string> {
  const script = join(home(), 'inner.json');
  await writeFile(script, JSON.stringify({ turns: innerTurns }));
  await mkdir(where, { recursive: true });
  const args = [
    WARREN_BIN,
    'acp',
    '--model',
    `scripted:${script}`,
    '--session-dir',
    join(home(), 'inner-sessions'),
  ];
  await writeFile(
    join(where, 'inner.md'),
    [
      '---',
      'name: inner',
      'description: an external ACP agent',
      'kind: acp',
      `command: ${JSON.stringify(process.execPath)}`,
      `args: ${JSON.stringify(args)}`,
      ...extraLines,
      '---',
      '',
    ].join('\n'),
  );
  return script;
}

async function outerScript(turns: unknown[]): Promise<string> {
  const script = join(home(), 'outer.json');
  await writeFile(script, JSON.stringify({ turns }));
  return script;
}

/** `warren -p go` on the outer script with the definitions in `agentsDir`, as stream-json. */
function printRun(agentsDir: string, script: string, ...extra: string[]) {
  return runWarren(
    [
      '-p',
      'go',
      '--model',
      `scripted:${script}`,
      '--agents-dir',
      agentsDir,
      '--output-format',
      'stream-json',
      '--session-dir',
      join(home(), 'sessions'),
      ...extra,
    ],
    { env: homeEnv(home()), cwd: project(), timeoutMs: 60_000 },
  );
}

const INNER_TURNS = [
  {
    match: { prompt: 'write fg' },
    toolCalls: [{ name: 'Write', input: { file_path: 'fg.txt', content: 'from inner\n' } }],
  },
  { match: { prompt: 'write fg' }, text: 'fg written' },
  {
    match: { prompt: 'write bg' },
    toolCalls: [{ name: 'Bash', input: { command: 'touch bg.txt' } }],
  },
  { match: { prompt: 'write bg' }, text: 'bg refused' },
];

describe('kind: acp children (warren acp at the other end)', () => {
  it('runs one in the foreground and one in the background, each asking through the parent gate', async () => {
    const agentsDir = join(home(), 'agents');
    await innerAgent(agentsDir, INNER_TURNS);
    const script = await outerScript([
      {
        match: { agent: '/^main$/' },
        toolCalls: [
          {
            name: 'Agent',
            input: { subagent_type: 'inner', description: 'fg', prompt: 'write fg' },
          },
          {
            name: 'Agent',
            input: {
              subagent_type: 'inner',
              description: 'bg',
              prompt: 'write bg',
              run_in_background: true,
            },
          },
        ],
      },
      // Whether the background child has ended by then or not, the main agent ends saying so.
      { match: { agent: '/^main$/' }, text: 'done' },
      { match: { agent: '/^main$/' }, text: 'done' },
    ]);
    const sessions = join(home(), 'sessions');
    // Edits in the project are allowed; commands would need a person, and -p has none.
    const run = await printRun(agentsDir, script, '--permission-mode', 'acceptEdits');
    expect(run.stderr).toBe('');
    const lines = jsonLines(run.stdout);
    const children = lines.filter((line) => line.type === 'agent_start');
    expect(children.map((line) => line.agent_type)).toEqual(['inner', 'inner']);
    // The child's updates are the child's own events: its text and its tool calls.
    const ends = lines.filter((line) => line.type === 'agent_end');
    expect(ends.map((line) => line.result).sort()).toEqual(['bg refused', 'fg written']);
    const toolResults = lines.filter((line) => line.type === 'tool_result' && line.depth === 1);
    expect(toolResults.map((line) => [line.tool_name, line.is_error]).sort()).toEqual([
      ['Bash: touch bg.txt', true],
      ['Write: fg.txt', false],
    ]);
    expect(await readFile(join(project(), 'fg.txt'), 'utf8')).toBe('from inner\n');
    expect(existsSync(join(project(), 'bg.txt'))).toBe(false);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'done' });
    // The child's own transcript, as for any child.
    const fgId = ends.find((line) => line.result === 'fg written').agent_id;
    const sessionId = lines[0].session_id;
    const transcript = await readFile(join(sessions, sessionId, 'agents', `${fgId}.jsonl`), 'utf8');
    expect(transcript).toContain('fg written');
  });

  it('is cancelled with the prompt that started it, its process gone', async () => {
    const agentsDir = join(home(), 'agents');
    const innerScript = await innerAgent(agentsDir, [{ delayMs: 60_000, text: 'too late' }]);
    const script = await outerScript([
      {
        match: { agent: '/^main$/' },
        toolCalls: [
          { name: 'Agent', input: { subagent_type: 'inner', description: 'slow', prompt: 'wait' } },
        ],
      },
      { text: 'never' },
    ]);
    running = await startAcpWarren({
      args: [
        '--model',
        `scripted:${script}`,
        '--agents-dir',
        agentsDir,
        '--session-dir',
        join(home(), 'sessions'),
      ],
      env: homeEnv(home()),
      cwd: project(),
    });
    const { sessionId } = await running.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    const prompt: ContentBlock[] = [{ type: 'text', text: 'go' }];
    const answer = running.agent.request(methods.agent.session.prompt, { sessionId, prompt });
    const innerRunning = () => processesWith(innerScript).length > 0;
    while (!innerRunning()) await new Promise((resolve) => setTimeout(resolve, 50));
    await running.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await answer).stopReason).toBe('cancelled');
    expect(await stillAlive(processesWith(innerScript))).toEqual([]);
  });
});

describe('kind: acp children in their own worktree and budget', () => {
  const callInner = (prompt: string) => ({
    match: { agent: '/^main$/' },
    toolCalls: [{ name: 'Agent', input: { subagent_type: 'inner', description: 'inner', prompt } }],
  });

  it('works in a worktree of its own with isolation: worktree, its changes kept there', async () => {
    makeGitRepo(project());
    const agentsDir = join(home(), 'agents');
    await innerAgent(agentsDir, INNER_TURNS, ['isolation: worktree']);
    const script = await outerScript([callInner('write fg'), { text: 'done' }]);
    const run = await printRun(agentsDir, script, '--permission-mode', 'acceptEdits');
    const lines = jsonLines(run.stdout);
    const kept = lines.find((line) => line.type === 'worktree' && line.subtype === 'kept');
    expect(kept).toMatchObject({ changed: true });
    expect(await readFile(join(kept.path, 'fg.txt'), 'utf8')).toBe('from inner\n');
    expect(existsSync(join(project(), 'fg.txt'))).toBe(false);
  });

  it("is stopped by the tree's time budget, its process gone", async () => {
    const agentsDir = join(home(), 'agents');
    const innerScript = await innerAgent(agentsDir, [{ delayMs: 60_000, text: 'too late' }]);
    const script = await outerScript([callInner('wait'), { text: 'out of time' }]);
    const run = await printRun(agentsDir, script, '--time-budget', '2000');
    const lines = jsonLines(run.stdout);
    expect(lines.find((line) => line.type === 'agent_end')).toMatchObject({
      agent_type: 'inner',
      status: 'budget',
    });
    expect(await stillAlive(processesWith(innerScript))).toEqual([]);
  });
});

describe('a hostile kind: acp agent', () => {
  it('is refused what lies outside its folders, an unasked write, and a destructive command', async () => {
    const outside = join(home(), 'outside');
    await mkdir(outside, { recursive: true });
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'secret\n');
    const link = join(project(), 'link.txt');
    await symlink(secret, link);
    const inside = join(project(), 'inside.txt');
    const agentsDir = join(home(), 'agents');
    await mkdir(agentsDir, { recursive: true });
    const args = [HOSTILE_AGENT, secret, link, inside];
    await writeFile(
      join(agentsDir, 'hostile.md'),
      [
        '---',
        'name: hostile',
        'description: d',
        'kind: acp',
        `command: ${JSON.stringify(process.execPath)}`,
        `args: ${JSON.stringify(args)}`,
        '---',
        '',
      ].join('\n'),
    );
    const script = await outerScript([
      {
        match: { agent: '/^main$/' },
        toolCalls: [
          { name: 'Agent', input: { subagent_type: 'hostile', description: 'h', prompt: 'go' } },
        ],
      },
      { text: 'done' },
    ]);
    const run = await printRun(agentsDir, script);
    const end = jsonLines(run.stdout).find((line) => line.type === 'agent_end');
    const report: string[] = end.result.split('\n');
    expect(report[0]).toMatch(/^read outside: refused .*outside the allowed directories/);
    expect(report[1]).toMatch(/^read through a link: refused .*resolves through a symlink/);
    expect(report[2]).toMatch(/^write outside: refused .*outside the allowed directories/);
    expect(report[3]).toMatch(/^write inside unasked: refused .*was not allowed/);
    expect(report[4]).toBe('ask to run rm: ok {"outcome":"selected","optionId":"no"}');
    expect(await readFile(secret, 'utf8')).toBe('secret\n');
    expect(existsSync(inside)).toBe(false);
  });
});
