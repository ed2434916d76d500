// Loads the UI's modules (Ink, React) only when the terminal UI runs, and React in its
// production build: the development build, chosen when NODE_ENV is unset, draws several times
// slower. NODE_ENV is put back at once, so the commands agents run never see it.
import type * as StartUi from './start-ui.js';

export async function loadUi(): Promise<typeof StartUi> {
  const before = process.env.NODE_ENV;
  if (before === undefined) process.env.NODE_ENV = 'production';
  try {
    return await import('./start-ui.js');
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
  }
}
