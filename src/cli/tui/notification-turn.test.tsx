// In the terminal UI a background task that ends while the main agent is idle wakes it: its
// notification is a turn of its own, as in print mode, not a rider on the person's next prompt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KEYS, type UiFixture, uiPerTest } from './ui-fixture.js';

const render = uiPerTest();

const SCRIPT = `
model: demo
turns:
  - match: { agent: "/^main$/", prompt: start }
    tool_calls:
      - { name: Agent, input: { description: write notes, prompt: Write., run_in_background: true } }
  - match: { agent: "/^main/Agent#1/" }
    delay_ms: 400
    text: Notes are ready.
  - match: { agent: "/^main$/", prompt: start }
    text: Started the writer.
  - match: { agent: "/^main$/", prompt: "<task-notification>" }
    text: "The writer reports: notes are ready."
  - match: { agent: "/^main$/", prompt: chat }
    text: Still here.
`;

/** The user messages the main agent's model was sent, from the session's transcript. */
function userMessages(ui: UiFixture): string[] {
  const { setup, sessionId } = ui.session;
  const file = join(setup.sessionDir, `${sessionId}.jsonl`);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines
    .map((line) => JSON.parse(line))
    .filter((record) => record.type === 'message' && record.message.role === 'user')
    .map((record) => record.message.content);
}

it('wakes the idle main agent with a background notification, in a turn of its own', async () => {
  const ui = await render(SCRIPT);
  await ui.type('start', KEYS.enter);
  await ui.waitFor('Started the writer.');
  // Nobody types: the notification alone wakes the main agent.
  const woken = await ui.waitFor('The writer reports: notes are ready.');
  expect(woken).toContain('Background work reported: the agent reads it.');
  await ui.type('chat', KEYS.enter);
  await ui.waitFor('Still here.');
  const messages = userMessages(ui);
  expect(messages).toHaveLength(3);
  expect(messages[0]).toBe('start');
  expect(messages[1]).toMatch(/^Background work you started has reported\./);
  expect(messages[1]).toContain('Notes are ready.');
  // The person's prompt is theirs alone.
  expect(messages[2]).toBe('chat');
});
