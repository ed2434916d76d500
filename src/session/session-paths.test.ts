import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { captureError } from '../testing/caught-errors.js';
import {
  agentTranscriptPath,
  defaultSessionDir,
  mainTranscriptPath,
  newSessionId,
  validateSessionId,
} from './session-paths.js';

describe('defaultSessionDir', () => {
  it('puts sessions under $WARREN_HOME when it is set', () => {
    expect(defaultSessionDir({ WARREN_HOME: '/srv/warren' })).toBe(join('/srv/warren', 'sessions'));
  });

  it('falls back to ~/.warren/sessions', () => {
    expect(defaultSessionDir({})).toBe(join(homedir(), '.warren', 'sessions'));
  });
});

describe('newSessionId', () => {
  it('sorts as a string in the order sessions were created', () => {
    const times = [
      '2024-12-31T23:59:59.999Z',
      '2025-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.001Z',
    ];
    const ids = times.map((time) => newSessionId(new Date(time)));
    expect([...ids].reverse().sort()).toEqual(ids);
  });

  it('gives distinct ids to sessions started in the same millisecond', () => {
    const now = new Date();
    const ids = new Set(Array.from({ length: 1000 }, () => newSessionId(now)));
    expect(ids.size).toBe(1000);
  });

  it('makes ids that --resume accepts', () => {
    const id = newSessionId();
    expect(validateSessionId(id)).toBe(id);
  });
});

describe('validateSessionId', () => {
  it.each(['../../etc', 'a/b', 'a\\b', '/etc/passwd', '..', '.hidden', '', 'id with spaces'])(
    'refuses %j, naming --resume and the fix',
    (id) => {
      const error = captureError(() => validateSessionId(id));
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).where).toBe('--resume');
      expect((error as ConfigError).fix).toMatch(/session_id/);
    },
  );

  it('names the place the id came from when it is not --resume', () => {
    const error = captureError(() => validateSessionId('../x', { where: 'sessionId' }));
    expect((error as ConfigError).message).toMatch(/^sessionId: /);
  });
});

describe('transcript paths', () => {
  it('keeps the main transcript beside the folder of its sidechains', () => {
    expect(mainTranscriptPath('/s', 'abc')).toBe(join('/s', 'abc.jsonl'));
    expect(agentTranscriptPath('/s', 'abc', 'agent-1')).toBe(
      join('/s', 'abc', 'agents', 'agent-1.jsonl'),
    );
  });

  it('refuses an agent id that would leave the session folder', () => {
    expect(() => agentTranscriptPath('/s', 'abc', '../../x')).toThrow(/agent id/);
  });
});
