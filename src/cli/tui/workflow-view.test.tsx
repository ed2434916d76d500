// A workflow run on the screen, over a real session and the scripted model: one line under the
// Background title whose counts move as its items end, its items' agents folded into it, and
// one line in the conversation with how it ended.
import { describe, expect, it } from 'vitest';
import { KEYS, uiPerTest } from './ui-fixture.js';

const renderUi = uiPerTest();

const SCRIPT = [
  "export const meta = { name: 'trio', description: 'three items' };",
  "phase('review');",
  'export const result = await parallel(',
  "  () => agent('ITEM-fast-END', { label: 'fast' }),",
  "  () => agent('ITEM-bad-END', { label: 'bad' }),",
  "  () => agent('ITEM-slow-END', { label: 'slow' }),",
  ');',
].join('\n');

const MODEL = `
model: demo
turns:
  - match: { prompt: START }
    tool_calls:
      - { name: Workflow, input: { script: ${JSON.stringify(SCRIPT)} } }
  - match: { prompt: ITEM-fast-END }
    text: FAST
  - match: { prompt: ITEM-bad-END }
    error: { status: 400, message: the item's request was malformed }
  - match: { prompt: ITEM-slow-END }
    delayMs: 2500
    text: SLOW
  - match: { last_tool_result: '"run_id"' }
    text: WAITING
  - text: NOTED
  - text: NOTED
  - text: NOTED
`;

describe('a workflow in the terminal UI', () => {
  it('shows its phase, counts and spending as one live line, then how it ended', async () => {
    const ui = await renderUi(MODEL);
    await ui.type('START', KEYS.enter);
    const live = await ui.waitFor(/Workflow {2}trio · review · 1 done, 1 running, 1 failed/);
    expect(live).toMatch(/1 failed · \d+ tok · unpriced · /);
    // The items' agents are counted on the workflow's line, not shown as rows of their own.
    expect(live).not.toContain('ITEM-slow-END');
    expect(live).not.toContain('● general-purpose');
    const ended = await ui.waitFor(/✗ Workflow {2}trio — completed_with_errors · 2 done, 1 failed/);
    expect(ended).not.toMatch(/● Workflow/);
    // Nor does each item's end get a line of its own.
    expect(ended).not.toMatch(/general-purpose {2}(fast|bad|slow)/);
  });
});
