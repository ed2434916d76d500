// A workflow run in a real terminal: the built `warren` in an 80×24 tmux pane with the scripted
// model calls Workflow; the Background panel shows the run as one line whose counts move as its
// items end, and the conversation gets one line with how it ended. Needs the build and tmux.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux } from '../../testing/tmux-terminal.js';
import { startWarrenInTmux, type WarrenInTmux } from '../../testing/warren-in-tmux.js';

const TMUX = hasTmux();

let warren: WarrenInTmux | undefined;
afterEach(async () => {
  await warren?.close();
  warren = undefined;
});

const SCRIPT = [
  "export const meta = { name: 'trio', description: 'three items' };",
  "phase('survey');",
  'export const result = await parallel(',
  "  () => agent('ITEM-fast-END', { label: 'fast' }),",
  "  () => agent('ITEM-slow-END', { label: 'slow' }),",
  "  () => agent('ITEM-bad-END', { label: 'bad' }),",
  ');',
].join('\n');

/** The slow item waits in Bash until the test writes `go` into the project. */
const MODEL = `model: demo
turns:
  - match: { agent: "/^main$/", prompt: survey }
    tool_calls:
      - { name: Workflow, input: { script: ${JSON.stringify(SCRIPT)} } }
  - match: { prompt: ITEM-fast-END }
    text: FAST
    usage: { input: 1000, output: 10 }
  - match: { prompt: ITEM-bad-END }
    error: { status: 400, message: malformed request }
  - match: { prompt: ITEM-slow-END }
    tool_calls: [{ name: Bash, input: { command: "until [ -f go ]; do sleep 0.1; done" } }]
    usage: { input: 1000, output: 10 }
  - match: { prompt: ITEM-slow-END }
    text: SLOW
    usage: { input: 1000, output: 10 }
  - match: { agent: "/^main$/", last_tool_result: '"run_id"' }
    text: The survey runs in the background.
  - match: { agent: "/^main$/" }
    text: Noted.
  - match: { agent: "/^main$/" }
    text: Noted.
  - match: { agent: "/^main$/" }
    text: Noted.
`;

describe.skipIf(!TMUX)('a workflow in a real terminal (skipped without tmux)', () => {
  it('shows the run as one line whose counts change as items end, then its final state', {
    timeout: 90_000,
  }, async () => {
    warren = await startWarrenInTmux({
      script: MODEL,
      args: ['--permission-mode', 'bypassPermissions'],
    });
    const { terminal, project } = warren;
    await terminal.submit('survey');
    const running = await terminal.waitFor(
      /Background\n● Workflow {2}trio · survey · 1 done, 1 running, 1 failed · /,
    );
    expect(running).toMatch(/1 failed · 2\.0k tok · unpriced/);
    // The items are counted on the run's line, not shown as rows of their own.
    expect(running).not.toMatch(/general-purpose|agent {2}(fast|slow|bad)/);
    await writeFile(join(project, 'go'), '');
    const ended = await terminal.waitFor(
      /✗ Workflow {2}trio — completed_with_errors · 2 done, 1 failed · 3\.0k tok/,
    );
    expect(ended).not.toContain('● Workflow');
    for (const line of ended.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });
});
