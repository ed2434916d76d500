// Sealed requests: what one signed for a use, a target and a time opens to, and that any change
// to any part of it (or another key, another target, another use, too old) is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { READ_MAX_AGE_MS, SEALED_KINDS, type SealedKind, seal, unseal } from './signed-envelope.js';

const KEY = { keys: ['wrk1_the-key-of-these-tests-0000000000000000'] };
const NOW = 1_800_000_000_000;

const open = (input: unknown, kind: SealedKind, target: string, auth = KEY) =>
  unseal(input, { auth, kind, target, maxAgeMs: READ_MAX_AGE_MS, now: NOW });

describe('sealed requests', () => {
  it('open to their body for the use and target they were signed for', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEALED_KINDS),
        fc.string(),
        fc.string(),
        (kind, target, body) => {
          const opened = open(seal(KEY, kind, target, body, NOW), kind, target);
          expect(opened).toMatchObject({ ok: true, body });
        },
      ),
    );
  });

  it('are refused when any field is changed', () => {
    const field = fc.constantFrom('kind', 'at', 'nonce', 'body', 'mac');
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1 }),
        field,
        fc.string({ minLength: 1 }),
        (target, body, name, change) => {
          const sealed = seal(KEY, 'spec', target, body, NOW);
          const altered: Record<string, unknown> = { ...sealed };
          if (name === 'at') altered.at = sealed.at - 1;
          else if (name === 'kind') altered.kind = 'message';
          else if (name === 'mac')
            altered.mac = `${sealed.mac!.slice(0, -1)}${sealed.mac!.endsWith('0') ? '1' : '0'}`;
          else if (name === 'nonce')
            altered.nonce = `${sealed.nonce.slice(0, -1)}${sealed.nonce.endsWith('A') ? 'B' : 'A'}`;
          else altered.body = `${body}${change}`;
          expect(open(altered, 'spec', target).ok).toBe(false);
        },
      ),
    );
  });

  it('are refused for another target, another use, another key, or with no signature', () => {
    const sealed = seal(KEY, 'spec', 'agent_a', '{}', NOW);
    expect(open(sealed, 'spec', 'agent_b')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/signature does not match/),
    });
    expect(open(sealed, 'message', 'agent_a')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/another use/),
    });
    expect(
      open(sealed, 'spec', 'agent_a', { keys: ['wrk1_another-key-entirely-0000000000000000'] }).ok,
    ).toBe(false);
    const hostile = { ...sealed, kind: '\u001b[2Jspec\nwarren: all is well' };
    expect(open(hostile, 'spec', 'agent_a')).toEqual({
      ok: false,
      reason: 'it was sealed for another use',
    });
    const { mac: _mac, ...unsigned } = sealed;
    expect(open(unsigned, 'spec', 'agent_a')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not signed/),
    });
    expect(open({ spec: 'anything' }, 'spec', 'agent_a')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a sealed warren request/),
    });
  });

  it('are accepted under any of the keys during a rotation, and signed with the first', () => {
    const rotating = { keys: ['wrk1_the-new-key-00000000000000000000000000', KEY.keys[0]!] };
    expect(open(seal(KEY, 'spec', 't', 'old', NOW), 'spec', 't', rotating).ok).toBe(true);
    expect(
      open(seal(rotating, 'spec', 't', 'new', NOW), 'spec', 't', { keys: [rotating.keys[0]!] }).ok,
    ).toBe(true);
  });

  it('are refused once older than their window, or dated well in the future', () => {
    const old = seal(KEY, 'read-progress', 't', '', NOW - READ_MAX_AGE_MS - 1);
    expect(open(old, 'read-progress', 't')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/a replay/),
    });
    const ahead = seal(KEY, 'read-progress', 't', '', NOW + 10 * 60_000);
    expect(open(ahead, 'read-progress', 't')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/future/),
    });
  });

  it('never put the key in a reason', () => {
    const reasons = [
      open(
        seal({ keys: ['wrk1_another-key-entirely-0000000000000000'] }, 'spec', 't', 'x', NOW),
        'spec',
        't',
      ),
      open(seal(KEY, 'spec', 't', 'x', NOW - 3_600_000), 'spec', 't'),
    ];
    for (const reason of reasons) expect(JSON.stringify(reason)).not.toContain(KEY.keys[0]);
  });
});
