import { describe, expect, it } from 'vitest';
import { OPTIONS, parseCliArgs } from './cli-args.js';
import { HELP } from './help-text.js';

describe('warren --help', () => {
  it('names every flag the parser takes', () => {
    // `--print` is shown as `-p`; `--worker-url` is register's <worker-url> argument as a flag.
    const shownOtherwise = new Set(['print', 'worker-url']);
    const missing = Object.keys(OPTIONS).filter(
      (flag) => !shownOtherwise.has(flag) && !HELP.includes(`--${flag}`),
    );
    expect(missing).toEqual([]);
  });

  it('names warren acp, which an editor runs with the run flags', () => {
    expect(HELP).toMatch(/^ {2}warren acp \[flags\] +warren as an ACP agent/m);
    expect(parseCliArgs(['acp', '--model', 'scripted:x.json'])).toMatchObject({
      command: 'acp',
      model: 'scripted:x.json',
    });
  });

  it('refuses --resume for warren acp: the editor loads sessions', () => {
    expect(() => parseCliArgs(['acp', '--resume', 'abc'])).toThrow(
      /--resume: does not apply to warren acp.*session\/load/,
    );
  });
});
