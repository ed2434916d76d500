// Workflow items and Anthropic's prompt cache, at the wire: items of one definition share their
// prefix (tools and system prompt), so the model layer's gate (model/prompt-cache-gate.ts) lets
// the first go and holds the rest until its reply begins; then they all read what it wrote.
import { describe, expect, it } from 'vitest';
import { resolveModel } from '../model/resolve-model.js';
import { query } from '../query.js';
import { startMockLlmServer } from '../testing/mock-llm/server.js';
import { runToEnd } from '../testing/run-events.js';
import { makeTempDir } from '../testing/temp-dir.js';

const SCRIPT = `export const meta = { name: 'fan', description: 'same prefix, four items' };
export const result = await pipeline([1, 2, 3, 4], (n) => agent('ITEM ' + n + ' say it'));`;

describe('workflow items on the Anthropic wire', () => {
  it('hold items with the same prefix until the first item’s reply begins, then release them', async () => {
    const order: string[] = [];
    let mainTurns = 0;
    const server = await startMockLlmServer({
      async handler(request) {
        const text = JSON.stringify(request.body);
        const item = /ITEM (\d)/.exec(text)?.[1];
        if (item === undefined) {
          mainTurns++;
          return mainTurns === 1
            ? { toolCalls: [{ name: 'Workflow', input: { script: SCRIPT } }] }
            : { text: 'done' };
        }
        order.push(`request ${item}`);
        // The first item is slow to answer: without the gate the others would all arrive now.
        if (order.length === 1) await new Promise((resolve) => setTimeout(resolve, 150));
        order.push(`reply ${item}`);
        return { text: `said ${item}` };
      },
    });
    try {
      const model = await resolveModel('anthropic:claude-sonnet-4-5', {
        env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url },
      });
      const { result } = await runToEnd(
        query({
          prompt: 'MAIN run it',
          options: { model, cwd: await makeTempDir(), tools: [], workflows: { wait: true } },
        }),
      );
      expect(result.result).toBe('done');
      const [first, firstReply, ...rest] = order;
      expect(first).toMatch(/^request \d$/);
      expect(firstReply).toBe(first!.replace('request', 'reply'));
      expect(rest.filter((entry) => entry.startsWith('request'))).toHaveLength(3);
      // Every item request carries the cache breakpoints that let it read the shared prefix.
      const items = server.requests.filter((r) => /ITEM \d say it/.test(JSON.stringify(r.body)));
      expect(items).toHaveLength(4);
      for (const request of items) expect(JSON.stringify(request.body)).toContain('cache_control');
    } finally {
      await server.close();
    }
  });
});
