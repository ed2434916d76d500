// `--system-prompt` and `--append-system-prompt` (Claude Code's flags) as the model sees them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeEnv, runWarren } from '../testing/cli-process.js';
import { makeTempDir } from '../testing/temp-dir.js';

const SCRIPT = `
turns:
  - match: { system: "/^Only this\\\\.$/" }
    text: replaced
  - match: { system: "/You are warren[\\\\s\\\\S]*\\\\n\\\\nALWAYS-SAY-X$/" }
    text: appended
  - text: plain
`;

async function answer(...flags: string[]): Promise<string> {
  const home = await makeTempDir('warren-system-prompt-');
  await writeFile(join(home, 'script.yaml'), SCRIPT);
  const run = await runWarren(
    ['-p', 'hi', '--model', `scripted:${join(home, 'script.yaml')}`, '--cwd', home, ...flags],
    { env: homeEnv(home) },
  );
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('the main agent’s system prompt from the command line', () => {
  it('is replaced by --system-prompt, and extended by --appendSystemPrompt', async () => {
    expect(await answer()).toBe('plain');
    expect(await answer('--system-prompt', 'Only this.')).toBe('replaced');
    expect(await answer('--appendSystemPrompt', 'ALWAYS-SAY-X')).toBe('appended');
  });
});
