// `npm run demo` is the README's first promise: it must keep working. Runs the built CLI.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../../demo/run.js', import.meta.url));

it('runs the demo: an explore sub-agent, then the fix, the passing test and the diff', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [DEMO], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  expect(stdout).toContain('▸ sub-agent explore started: map the project');
  expect(stdout).toContain('◂ sub-agent explore completed after 2 turns');
  expect(stdout).toContain('all tests passed');
  expect(stdout).toContain('── result (exit 0) ──');
  expect(stdout).toContain('+  return price - price * (percent / 100);');
});
