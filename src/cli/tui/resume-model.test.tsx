// `warren --resume <id>` in the terminal UI goes on with the model the session ran with: the
// exit line's "Go on with: warren --resume <id>" works as printed, without --model.
import { expect, it } from 'vitest';
import { makeTempDir } from '../../testing/temp-dir.js';
import { KEYS, uiPerTest } from './ui-fixture.js';

const render = uiPerTest();

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
  let ui = await render(SCRIPT, { args: { sessionDir } });
  await ui.type('hello', KEYS.enter);
  await ui.waitFor('First answer.');
  const sessionId = ui.session.sessionId;
  // The first UI is unmounted as the second is rendered.

  ui = await render('turns: []\n', {
    args: { sessionDir, resume: sessionId, model: undefined },
  });
  expect(ui.frame()).toMatch(/scripted:remembered · session …/);
  await ui.type('again', KEYS.enter);
  await ui.waitFor('Answered by the remembered model.');
});
