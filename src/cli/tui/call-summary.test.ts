// How a tool call reads on one line, and the change an edit would make.
import { describe, expect, it } from 'vitest';
import { callDiff, callSummary } from './call-summary.js';
import { formatCost, formatDuration, formatTokens } from './format.js';

describe('a call on one line', () => {
  it('names the tool and what it works on, paths relative to the working directory', () => {
    expect(callSummary('Read', { file_path: '/repo/src/auth.ts' }, '/repo')).toBe(
      'Read src/auth.ts',
    );
    expect(callSummary('Read', { file_path: '/elsewhere/a.ts' }, '/repo')).toBe(
      'Read /elsewhere/a.ts',
    );
    expect(callSummary('Bash', { command: 'npm test\nnpm run lint' }, '/repo')).toBe(
      'Bash npm test …',
    );
    expect(
      callSummary('Agent', { description: 'map it', subagent_type: 'explore', prompt: 'x' }, '/'),
    ).toBe('Agent explore: map it');
    expect(callSummary('TodoWrite', { todos: [{}, {}] }, '/')).toBe('TodoWrite 2 todos');
    expect(callSummary('mcp__fs__list', { dir: 'src' }, '/')).toBe('mcp__fs__list src');
    expect(callSummary('Glob', {}, '/')).toBe('Glob');
  });

  it('shows an Edit as removed and added lines, and a Write as added lines', () => {
    expect(
      callDiff('Edit', { file_path: 'a', old_string: 'one\ntwo', new_string: 'three' }),
    ).toEqual([
      { kind: 'removed', text: 'one' },
      { kind: 'removed', text: 'two' },
      { kind: 'added', text: 'three' },
    ]);
    expect(callDiff('Write', { file_path: 'a', content: 'x\n' })).toEqual([
      { kind: 'added', text: 'x' },
    ]);
    expect(callDiff('Read', { file_path: 'a' })).toBeUndefined();
  });
});

describe('short numbers', () => {
  it('writes durations, tokens and costs to fit a row', () => {
    expect([12, 3240, 65_000, 3_720_000].map(formatDuration)).toEqual([
      '12 ms',
      '3.2s',
      '1m 05s',
      '1h 02m',
    ]);
    expect([950, 1234, 34_567, 1_500_000].map(formatTokens)).toEqual([
      '950',
      '1.2k',
      '35k',
      '1.5M',
    ]);
    expect([formatCost(0.01234), formatCost(12.5), formatCost(null)]).toEqual([
      '$0.0123',
      '$12.50',
      'unpriced',
    ]);
  });
});
