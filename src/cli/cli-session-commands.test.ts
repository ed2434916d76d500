// `warren usage` and `warren report` on a real session: a scripted fan-out of five sub-agents,
// one with a child of its own, read back from its transcripts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { homeEnv, runWarren } from '../testing/cli-process.js';
import { type FanOutSession, runFanOutSession } from '../testing/fan-out-session.js';

const FAN_OUT = fileURLToPath(new URL('../testing/fixtures/fan-out.yaml', import.meta.url));

let session: FanOutSession;

beforeAll(async () => {
  session = await runFanOutSession();
});

function warren(args: string[]) {
  return runWarren([...args, '--session-dir', session.sessionDir], {
    env: homeEnv(session.home),
  });
}

describe('the JSON result of a fan-out', () => {
  it('gives every agent its subtree usage and cost; the root subtree is the run total', () => {
    const { result } = session;
    const agents = result.agents as Array<{
      agent_id: string;
      parent_id: string | null;
      usage: { input_tokens: number };
      subtree_usage: { input_tokens: number };
      cost_usd: number;
      subtree_cost_usd: number;
    }>;
    expect(agents).toHaveLength(7);
    const [main] = agents;
    expect(main?.subtree_usage).toEqual(result.usage);
    expect(main?.subtree_cost_usd).toBeCloseTo(result.total_cost_usd as number, 10);
    const permissions = agents.find((agent) =>
      agents.some((child) => child.parent_id === agent.agent_id && agent !== main),
    )!;
    const helper = agents.find((agent) => agent.parent_id === permissions.agent_id)!;
    expect(permissions.subtree_usage.input_tokens).toBe(
      permissions.usage.input_tokens + helper.usage.input_tokens,
    );
    expect(permissions.subtree_cost_usd).toBeCloseTo(permissions.cost_usd + helper.cost_usd, 10);
  });
});

describe('warren usage', () => {
  it('prints the tree as an indented table with a subtotal under each agent with children', async () => {
    const run = await warren(['usage', session.sessionId]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^Session ${session.sessionId}: 7 agents, cost \\$\\d+\\.\\d{4}$`),
    );
    expect(lines[2]).toMatch(
      /^AGENT +TURNS +TOOLS +INPUT +CACHE READ +CACHE WRITE +CACHED +OUTPUT +COST +TIME$/,
    );
    expect(lines[3]).toMatch(/^main +2 +5 /);
    expect(lines[4]).toMatch(/^ {2}explore: review the loop /);
    expect(run.stdout).toMatch(
      /\n {2}explore: review the loop +2 +1 +1,500 +2,300 +0 +61% +65 +\$/,
    );
    expect(run.stdout).toMatch(/\n {2}general-purpose: review permissions +2 +1 +1,500 /);
    expect(run.stdout).toMatch(/\n {4}explore: check the rules +2 +1 +1,250 /);
    expect(run.stdout).toMatch(
      /\n {2}└ subtotal general-purpose +2,750 +0 +0 +0% +95 +\$0\.0097\n/,
    );
    expect(lines.filter((line) => line.startsWith('total'))).toHaveLength(1);
  });

  it('prints the same tree as JSON with paths, models and subtree numbers', async () => {
    const run = await warren(['usage', session.sessionId, '--json']);
    expect(run.code).toBe(0);
    const usage = JSON.parse(run.stdout);
    expect(usage).toMatchObject({
      session_id: session.sessionId,
      usage: session.result.usage,
      total_cost_usd: expect.closeTo(session.result.total_cost_usd as number, 10),
    });
    // The tree read top to bottom, siblings in the order their parent started them.
    expect(usage.agents.map((agent: { path: string }) => agent.path)).toEqual([
      'main',
      'main/Agent#1/explore',
      'main/Agent#2/explore',
      'main/Agent#3/explore',
      'main/Agent#4/general-purpose',
      'main/Agent#4/general-purpose/Agent#1/explore',
      'main/Agent#5/explore',
    ]);
    const fromRun = new Map(session.result.agents.map((agent) => [agent.agent_id, agent]));
    for (const agent of usage.agents) {
      const live = fromRun.get(agent.agent_id)!;
      expect(agent).toMatchObject({
        model: 'scripted:fan-out',
        usage: live.usage,
        subtree_usage: live.subtree_usage,
        num_turns: live.num_turns,
        tool_calls: live.tool_calls,
        status: 'completed',
      });
    }
  });

  it('names the session it cannot find, and where it looked (exit 2)', async () => {
    const run = await warren(['usage', 'no-such-session']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^warren: warren usage no-such-session: no such session \(looked for .*no-such-session\.jsonl\)/,
    );
    const missing = await runWarren(['report', '--session-dir', session.sessionDir], {
      env: { HOME: session.home },
      cwd: session.home,
    });
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^warren: warren report: no session of .* in .*sessions \(pass a session id/,
      ),
    });
  });

  it('reads the newest session of the folder when no id is given', async () => {
    const inProject = await runWarren(['usage', '--json', '--session-dir', session.sessionDir], {
      env: homeEnv(session.home),
      cwd: session.project,
    });
    expect(inProject.code).toBe(0);
    expect(JSON.parse(inProject.stdout).session_id).toBe(session.sessionId);
    const viaCwd = await warren(['report', '--cwd', session.project]);
    expect(viaCwd.stdout).toBe(`${join(session.sessionDir, `${session.sessionId}.html`)}\n`);
  });
});

describe('warren -p --verbose', () => {
  it('names the session, and which of two children of one type each line is from', async () => {
    const run = await runWarren(
      [
        '-p',
        'Review the code base.',
        '--verbose',
        '--model',
        `scripted:${FAN_OUT}`,
        '--cwd',
        session.project,
        '--session-dir',
        session.sessionDir,
      ],
      { env: homeEnv(session.home) },
    );
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines[0]).toMatch(/^session [\w.-]+$/);
    const started = (description: string) =>
      lines.find((line) => line.endsWith(`: ${description}`))?.match(/▸ (explore \w+):/)?.[1];
    const loop = started('review the loop');
    const tools = started('review the tools');
    expect(loop).toBeDefined();
    expect(loop).not.toBe(tools);
    expect(lines).toContain(`  [${loop}] → Glob {"pattern":"**/*.txt"}`);
    expect(lines).toContain(`  [${tools}] → Read {"file_path":"missing.txt"}`);
  });
});

describe('warren report', () => {
  it('writes one self-contained HTML file: every agent, no address to fetch anything from', async () => {
    const file = join(session.home, 'report.html');
    const run = await warren(['report', session.sessionId, '--html', file]);
    expect(run).toMatchObject({ code: 0, stdout: `${file}\n`, stderr: '' });
    const html = await readFile(file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/class="row" role="button"/g)).toHaveLength(7);
    for (const description of ['review the loop', 'check the rules', 'review sessions']) {
      expect(html).toContain(description);
    }
    // Nothing loaded from elsewhere: no src or href at all, and a policy that forbids it.
    expect(html).not.toMatch(/\s(src|href)=/);
    expect(html).toContain(`default-src 'none'`);
  });

  it('goes next to the transcripts without --html', async () => {
    const run = await warren(['report', session.sessionId]);
    expect(run.stdout).toBe(`${join(session.sessionDir, `${session.sessionId}.html`)}\n`);
  });
});
