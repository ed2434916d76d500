// `warren --resume <id>` in the terminal UI goes on with the model the session ran with: the
// exit line's "Go on with: warren --resume <id>" works as printed, without --model.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { makeTempDir } from '../../testing/temp-dir.js';
import { KEYS, renderUi, type UiFixture } from './ui-fixture.js';

let ui: UiFixture | undefined;
beforeEach(() => {
  vi.stubEnv('COLUMNS', '100');
  vi.stubEnv('LINES', '24');
});
afterEach(() => {
  ui?.unmount();
  ui = undefined;
  vi.unstubAllEnvs();
});

const SCRIPT = `
model: remembered
turns:
  - match: { prompt: hello }
    text: First answer.
  - match: { prompt: again }
    text: Answered by the remembered model.
`;

it('resumes a session with the model it ran with, given no --model', async () => {
  const sessionDir = await makeTempDir('warren-ui-sessions-');
  ui = await renderUi(SCRIPT, { args: { sessionDir } });
  await ui.type('hello', KEYS.enter);
  await ui.waitFor('First answer.');
  const sessionId = ui.session.sessionId;
  ui.unmount();

  ui = await renderUi('turns: []\n', {
    args: { sessionDir, resume: sessionId, model: undefined },
  });
  expect(ui.frame()).toMatch(/scripted:remembered · session …/);
  await ui.type('again', KEYS.enter);
  await ui.waitFor('Answered by the remembered model.');
});
