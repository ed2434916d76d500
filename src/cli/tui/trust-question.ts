// The terminal UI's one question about an untrusted project, asked before anything of it runs
// and before the UI is drawn: every item in full, then yes (recorded, as `warren trust` does) or
// no (the session runs without them). Anything but a yes is a no.
import { createInterface } from 'node:readline';
import { ConfigError } from '../../core/config-error.js';
import type { ProjectTrust } from '../trust/project-trust.js';
import { trustListing } from '../trust/trust-report.js';
import type { Terminal } from './interactive-command.js';

export function askProjectTrust(terminal: Terminal, trust: ProjectTrust): Promise<boolean> {
  terminal.stdout.write(
    `${trustListing(trust)}\nNothing of it runs unless you trust this project. A yes is remembered until any of it changes.\n`,
  );
  const lines = createInterface({ input: terminal.stdin, output: terminal.stdout });
  return new Promise((resolve, reject) => {
    let answered = false;
    lines.on('SIGINT', () => {
      answered = true;
      lines.close();
      reject(
        new ConfigError('the trust question', 'not answered', 'run warren again to answer it'),
      );
    });
    lines.on('close', () => {
      if (!answered) resolve(false);
    });
    lines.question('Trust this project and let them run? [y/N] ', (answer) => {
      answered = true;
      lines.close();
      const yes = /^\s*y(es)?\s*$/i.test(answer);
      terminal.stdout.write(yes ? 'Trusted.\n' : 'Not trusted: the session runs without them.\n');
      resolve(yes);
    });
  });
}
