import { describe, expect, it } from 'vitest';
import { textOutput } from './output-format.js';

function run(options: { stderrIsTerminal: boolean; verbose: boolean }) {
  let stderr = '';
  const output = textOutput({
    sessionId: 'S-1',
    permissionMode: 'default',
    stdout: () => {},
    stderr: (text) => {
      stderr += text;
    },
    ...options,
  });
  output.finish({ result: 'done', is_error: false });
  return stderr;
}

describe('the text output of a run', () => {
  it('ends with the session id and how to go on, for a person at a terminal', () => {
    expect(run({ stderrIsTerminal: true, verbose: false })).toBe(
      'warren: session S-1 (go on with warren --resume S-1)\n',
    );
  });

  it('says nothing more on stderr into a pipe or a file', () => {
    expect(run({ stderrIsTerminal: false, verbose: false })).toBe('');
  });
});
