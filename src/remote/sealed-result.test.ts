// A child's result as its workflow returns it: readable with the remote key (any key of a
// rotation), for that agent only, and by nobody without the key.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../core/events.js';
import { openResult, sealResult } from './sealed-result.js';

const KEY = { keys: ['wrk1_the-key-of-these-tests-0000000000000000'] };
const result = {
  agentId: 'agent_a',
  status: 'completed',
  result: 'the secret answer',
} as RunResult;

describe('a sealed result', () => {
  it('opens with the key it was sealed with, or any key of a rotation', () => {
    const sealed = sealResult(KEY, 'agent_a', result);
    expect(JSON.stringify(sealed)).not.toContain('secret');
    expect(openResult(KEY, 'agent_a', sealed)).toEqual(result);
    expect(
      openResult(
        { keys: ['wrk1_the-new-key-00000000000000000000000000', KEY.keys[0]!] },
        'agent_a',
        sealed,
      ),
    ).toEqual(result);
  });

  it('does not open with another key, for another agent, or altered', () => {
    const sealed = sealResult(KEY, 'agent_a', result) as { data: string };
    expect(() =>
      openResult({ keys: ['wrk1_another-key-entirely-0000000000000000'] }, 'agent_a', sealed),
    ).toThrow(/encrypted with a remote key this process does not have/);
    expect(() => openResult(KEY, 'agent_b', sealed)).toThrow(/encrypted/);
    const flipped = Buffer.from(sealed.data, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() =>
      openResult(KEY, 'agent_a', { ...sealed, data: flipped.toString('base64') }),
    ).toThrow(/encrypted/);
  });

  it('is plain from a worker with no key, and taken as it is', () => {
    expect(sealResult('insecure-no-auth', 'agent_a', result)).toBe(result);
    expect(openResult(KEY, 'agent_a', result)).toBe(result);
  });
});
