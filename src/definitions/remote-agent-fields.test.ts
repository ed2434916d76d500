// A remote (A2A) agent as a library or a file gives it: only a card at an http(s) address or an
// inline JSON card, and secrets from the environment, never from a command a file would run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveAgentDefinitions } from './load-agent-definitions.js';

const remoteAgent = (remote: Record<string, unknown>) => () =>
  resolveAgentDefinitions({ far: { description: 'Far away.', prompt: '', remote } });

describe('a remote agent definition', () => {
  it('takes a card URL and auth from the environment', () => {
    const far = remoteAgent({
      cardUrl: 'https://agents.example/card.json',
      auth: { type: 'apiKey', key: '$FAR_KEY' },
    })().get('far');
    expect(far?.remote).toEqual({
      cardUrl: 'https://agents.example/card.json',
      auth: { type: 'apiKey', key: '$FAR_KEY' },
    });
  });

  it('refuses a card that is neither an http(s) URL nor a JSON object, naming the field', () => {
    expect(remoteAgent({ cardUrl: 'file:///etc/passwd' })).toThrow(/^agents\.far: .*http\(s\) URL/);
    expect(remoteAgent({ cardJson: '[1]' })).toThrow(/must be a JSON object/);
    expect(remoteAgent({})).toThrow(/give one of cardUrl/);
  });

  it('refuses every auth value that would run a command', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (rest) => {
        fc.pre(!rest.startsWith('!'));
        expect(
          remoteAgent({
            cardUrl: 'https://agents.example/card.json',
            auth: { type: 'http', scheme: 'Bearer', token: `!${rest}` },
          }),
        ).toThrow(/!command/);
      }),
    );
  });
});
