// A remote child's steps and result are kept by Restate: a secret in a tool's result or a
// model's answer (the worker's own API key, an `sk-…` token) is redacted there, as in a
// transcript, while the child itself worked with what it got. Real restate-server and worker.
import { describe, expect, it } from 'vitest';
import type { MockReply } from '../testing/mock-llm/server.js';
import { remoteAgentCall, restateSuite, WORKER_KEY } from '../testing/restate/restate-world.js';

const suite = restateSuite('remote journal redaction tests');

const TOKEN = 'sk-proj-JournalToken0123456789abcdef';
/** A word next to the secrets that is no secret: it proves the query sees the journal's text. */
const MARKER = 'journal-marker-4f1c';

/**
 * Every journal entry of every invocation as Restate stores it (`raw`, protobuf with the
 * payloads as they were sent), read through the admin API's SQL.
 */
async function journalText(adminUrl: string): Promise<string> {
  const response = await fetch(`${adminUrl}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: 'SELECT * FROM sys_journal' }),
  });
  expect(response.status).toBe(200);
  const { rows } = (await response.json()) as { rows: { raw: string }[] };
  expect(rows.length).toBeGreaterThan(0);
  return rows.map((row) => Buffer.from(row.raw, 'hex').toString('latin1')).join('\n');
}

describe.skipIf(suite.skip)('the journal of a remote child', () => {
  it('keeps no secret from a tool result or a model answer', async () => {
    const { world } = suite;
    suite.script = (turn): MockReply => {
      if (turn.prompt.includes('CHILD-SECRET')) {
        if (turn.turn === 0) {
          return {
            toolCalls: [
              {
                name: 'Bash',
                input: { command: `printf '%s %s %s' ${MARKER} ${TOKEN} "$PWD"` },
              },
            ],
          };
        }
        // The child saw the token unredacted, and says so with the worker's key beside it.
        const saw = turn.last.includes(TOKEN) ? 'saw-token' : 'no-token';
        return { text: `${MARKER} ${saw} ${WORKER_KEY}` };
      }
      return turn.turn === 0 ? remoteAgentCall('CHILD-SECRET go', 'leak') : { text: 'PARENT done' };
    };
    const run = await world.run(['-p', 'PARENT-SECRET go', ...world.flags()]);
    expect(run.code).toBe(0);
    // The child worked with the token; its parent gets the result redacted, as it was kept.
    expect(run.stdout).toContain(`${MARKER} saw-token [REDACTED]`);

    const journal = await journalText(world.server.adminUrl);
    expect(journal).toContain(MARKER);
    expect(journal).not.toContain(TOKEN);
    expect(journal).not.toContain(WORKER_KEY);
  }, 240_000);
});
