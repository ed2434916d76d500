import { describe, expect, it } from 'vitest';
import { OPTIONS } from './cli-args.js';
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
});
