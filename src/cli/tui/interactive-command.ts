// `warren` with no prompt: the terminal UI. Refuses when standard input or output is not a
// terminal (pointing to -p), assembles the session as print mode does, loads Ink only now, and
// on the way out stops everything the session started before it returns.
import { ConfigError } from '../../core/config-error.js';
import type { InteractiveArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { setUpRun } from '../run/run-setup.js';
import { ChangeFeed } from './change-feed.js';
import { InteractiveSession } from './interactive-session.js';
import { loadUi } from './load-ui.js';
import { themeFor } from './theme.js';
import { askProjectTrust } from './trust-question.js';

export interface Terminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** Draws at most this often (and less often when draws cost more); events in between coalesce. */
const DRAW_INTERVAL_MS = 150;

export async function runInteractive(
  args: InteractiveArgs,
  io: CliIo,
  terminal: Terminal = { stdin: process.stdin, stdout: process.stdout, env: process.env },
): Promise<number> {
  if (!terminal.stdin.isTTY || !terminal.stdout.isTTY) {
    const which = terminal.stdout.isTTY ? 'standard input is' : 'standard output is';
    throw new ConfigError(
      'terminal UI',
      `needs a terminal, and ${which} not one`,
      'to run a prompt to the end, use warren -p "<prompt>" (the prompt may come on stdin)',
    );
  }
  const feed = new ChangeFeed({ intervalMs: DRAW_INTERVAL_MS });
  // The policy asks the session's questions, which exist once the session does.
  let session: InteractiveSession | undefined;
  const setup = await setUpRun(args, io, {
    canUseTool: (prompt) => {
      if (!session) throw new Error('a permission question before the session started');
      return session.permissions.ask(prompt);
    },
    // Asked once, before the session exists: nothing of the project has run yet.
    askProjectTrust: (trust) => askProjectTrust(terminal, trust),
  });
  session = new InteractiveSession(setup, { onChange: feed.changed });
  const { startUi } = await loadUi();
  const ui = startUi({ session, feed, terminal, theme: themeFor(terminal.env) });

  // A closed terminal (SIGHUP) or a kill (SIGTERM) ends the session as Ctrl+C twice does.
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = signal;
    ui.requestExit();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  try {
    await ui.exitRequested;
    await session.close();
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
    feed.stop();
    await ui.unmount();
  }
  if (!signalled) {
    io.stdout(`Session ${session.sessionId}. Go on with: warren --resume ${session.sessionId}\n`);
  }
  return signalled === 'SIGINT' || signalled === undefined ? 0 : 128 + signalNumber(signalled);
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGHUP' ? 1 : signal === 'SIGTERM' ? 15 : 2;
}
