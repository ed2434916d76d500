// A `kind: acp` child (`warren acp` at the other end) reports what it spent and runs its hooks as
// a local child does: the tokens of its prompt responses are its usage in `agents[]` and the
// run's totals; SubagentStart adds context to its prompt; SubagentStop sends it back to work.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeEnv, runWarren, WARREN_BIN } from '../testing/cli-process.js';
import { answer, writeHookScript } from '../testing/hook-scripts.js';
import { useTempDir } from '../testing/temp-dir.js';

const home = useTempDir('warren-acp-hooks-home-');
const project = useTempDir('warren-acp-hooks-project-');

async function innerAgent(agentsDir: string, turns: unknown[]): Promise<void> {
  const script = join(home(), 'inner.json');
  await writeFile(script, JSON.stringify({ turns }));
  await mkdir(agentsDir, { recursive: true });
  const args = [WARREN_BIN, 'acp', '--model', `scripted:${script}`];
  await writeFile(
    join(agentsDir, 'inner.md'),
    [
      '---',
      'name: inner',
      'description: an external ACP agent',
      'kind: acp',
      `command: ${JSON.stringify(process.execPath)}`,
      `args: ${JSON.stringify([...args, '--session-dir', join(home(), 'inner-sessions')])}`,
      '---',
      '',
    ].join('\n'),
  );
}

async function outerRun(agentsDir: string, turns: unknown[], ...extra: string[]) {
  const script = join(home(), 'outer.json');
  await writeFile(script, JSON.stringify({ turns }));
  const flags = ['--model', `scripted:${script}`, '--agents-dir', agentsDir];
  return runWarren(['-p', 'go', ...flags, '--output-format', 'json', ...extra], {
    env: homeEnv(home()),
    cwd: project(),
    timeoutMs: 60_000,
  });
}

const CALL_INNER = {
  match: { agent: '/^main$/' },
  toolCalls: [
    { name: 'Agent', input: { subagent_type: 'inner', description: 'sum', prompt: 'summarize' } },
  ],
};

describe('kind: acp children: usage and hooks', () => {
  it("counts the tokens the agent reports as the child's usage and in the run's totals", async () => {
    const agentsDir = join(home(), 'agents');
    await innerAgent(agentsDir, [{ text: 'a summary' }]);
    const run = await outerRun(agentsDir, [
      CALL_INNER,
      { match: { agent: '/^main$/' }, text: 'done' },
    ]);
    expect(run.stderr).toBe('');
    const json = JSON.parse(run.stdout);
    const inner = json.agents.find((agent: { agent_type: string }) => agent.agent_type === 'inner');
    expect(inner.status).toBe('completed');
    expect(inner.usage.input_tokens).toBeGreaterThan(0);
    expect(inner.usage.output_tokens).toBeGreaterThan(0);
    const main = json.agents.find((agent: { agent_type: string }) => agent.agent_type === 'main');
    expect(json.usage.input_tokens).toBe(main.usage.input_tokens + inner.usage.input_tokens);
  });

  it('runs SubagentStart and SubagentStop hooks: context into its prompt, a second prompt on block', async () => {
    const agentsDir = join(home(), 'agents');
    await innerAgent(agentsDir, [
      { match: { prompt: 'CONTEXT-FROM-HOOK' }, text: 'first answer' },
      { match: { prompt: 'ADD DETAIL' }, text: 'second answer' },
    ]);
    const start = await writeHookScript(
      home(),
      'start',
      answer({
        hookSpecificOutput: {
          hookEventName: 'SubagentStart',
          additionalContext: 'CONTEXT-FROM-HOOK',
        },
      }),
    );
    const stop = await writeHookScript(
      home(),
      'stop',
      `if (!input.stop_hook_active) ${answer({ decision: 'block', reason: 'ADD DETAIL' })}`,
    );
    const settings = join(home(), 'settings.json');
    await writeFile(
      settings,
      JSON.stringify({
        hooks: {
          SubagentStart: [
            { matcher: 'inner', hooks: [{ type: 'command', command: start.command }] },
          ],
          SubagentStop: [{ matcher: 'inner', hooks: [{ type: 'command', command: stop.command }] }],
        },
      }),
    );
    const run = await outerRun(
      agentsDir,
      [CALL_INNER, { match: { agent: '/^main$/', lastToolResult: 'second answer' }, text: 'done' }],
      '--settings',
      settings,
    );
    expect(run.stderr).toBe('');
    const json = JSON.parse(run.stdout);
    expect(json.result).toBe('done');
    const inner = json.agents.find((agent: { agent_type: string }) => agent.agent_type === 'inner');
    expect(inner).toMatchObject({ status: 'completed', num_turns: 2 });
    expect(start.calls().map((call) => [call.hook_event_name, call.agent_type])).toEqual([
      ['SubagentStart', 'inner'],
    ]);
    expect(
      stop.calls().map((call) => [call.last_assistant_message, call.stop_hook_active]),
    ).toEqual([
      ['first answer', false],
      ['second answer', true],
    ]);
  });
});
