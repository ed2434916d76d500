// `--pause-at-budget` through the real command: a spent --token-budget pauses the run (exit 3, no
// request after it, the transcript as it stood), and `--resume` with a larger budget goes on.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runWarren } from '../testing/cli-process.js';
import { useCliSandbox } from '../testing/hostile/cli-sandbox.js';

const cli = useCliSandbox();

beforeEach(async () => {
  await writeFile(join(cli.project(), 'notes.txt'), 'the answer is 42\n');
});

const warren = (args: string[]) => runWarren(args, { env: cli.env() });
const against = (...extra: string[]) => cli.againstServer('--cwd', cli.project(), ...extra);

describe('warren -p --pause-at-budget', () => {
  it('pauses at the token budget with no request after it, and goes on when resumed with more', async () => {
    cli.server.enqueue({
      text: 'Reading the notes.',
      toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }],
      usage: { input: 900, output: 200 },
    });
    const paused = await warren([
      '-p',
      'What do the notes say?',
      ...against('--token-budget', '1000', '--pause-at-budget', '--output-format', 'json'),
    ]);
    expect(paused.code, paused.stderr).toBe(3);
    const result = JSON.parse(paused.stdout);
    expect(result).toMatchObject({ subtype: 'error_budget', is_error: true });
    expect(result.error).toMatch(/^Paused: the token budget is used up/);
    // No grace turn: the one request that spent the budget is the last.
    expect(cli.chatRequests()).toHaveLength(1);

    cli.server.enqueue({ text: 'The notes say the answer is 42.' });
    const resumed = await warren([
      '-p',
      'Go on.',
      ...against('--resume', result.session_id, '--token-budget', '100000', '--pause-at-budget'),
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('The notes say the answer is 42.\n');
    // It went on from the Read result the paused run had recorded.
    expect(JSON.stringify(cli.chatRequests()[1]?.body)).toContain('the answer is 42');
  });

  it('refuses --pause-at-budget without a budget, naming the flags that give one', async () => {
    const run = await warren(['-p', 'hi', ...against('--pause-at-budget')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^warren: --pause-at-budget: has no budget to pause at \(give --token-budget <n> or --max-budget-usd <dollars> with it\)/,
    );
  });
});
