// The prompt cache, end to end on the Anthropic wire: every request warren sends is laid out so
// the longest possible prefix repeats across a parent's turns, across siblings of one
// definition, and from a parent to a child forked from it; breakpoints sit where later requests
// read; siblings wait for the first of them to write their shared prefix.
import { describe, expect, it } from 'vitest';
import { resolveModel } from './model/resolve-model.js';
import { query } from './query.js';
import { type RecordedRequest, startMockLlmServer } from './testing/mock-llm/server.js';
import { runToEnd } from './testing/run-events.js';
import { echoTool } from './testing/stub-tools.js';
import { makeTempDir } from './testing/temp-dir.js';

interface Block {
  role: string;
  block: unknown;
}
interface Sent {
  arrivedAt: number;
  role: 'parent' | 'helper' | 'fork';
  tools: unknown[];
  system: unknown[];
  blocks: Block[];
  breakpoints: number;
}

/** A request's body with every cache_control removed: what the provider's cache compares. */
function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, inner]) => [key, withoutCacheControl(inner)]),
  );
}

function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum, item) => sum + countBreakpoints(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (sum, [key, inner]) => sum + (key === 'cache_control' ? 1 : countBreakpoints(inner)),
    0,
  );
}

function read(request: RecordedRequest, arrivedAt: number): Sent {
  const body = request.body as {
    tools: unknown[];
    system: Array<{ text: string }>;
    messages: Array<{ role: string; content: unknown[] }>;
  };
  const text = JSON.stringify(body.messages);
  const role = body.system[0]!.text.includes('HELPER-ROLE')
    ? 'helper'
    : text.includes('forked from the conversation above')
      ? 'fork'
      : 'parent';
  return {
    arrivedAt,
    role,
    tools: withoutCacheControl(body.tools) as unknown[],
    system: withoutCacheControl(body.system) as unknown[],
    blocks: body.messages.flatMap((message) =>
      message.content.map((block) => ({ role: message.role, block: withoutCacheControl(block) })),
    ),
    breakpoints: countBreakpoints(body),
  };
}

const agentCall = (prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 12), prompt, ...extra },
});

describe('the prompt cache layout', () => {
  it('repeats the prefix across turns, siblings and a fork, and holds siblings behind the first', async () => {
    const sent: Sent[] = [];
    let firstHelperAt: number | undefined;
    const server = await startMockLlmServer({
      handler(request) {
        const now = Date.now();
        const body = read(request, now);
        sent.push(body);
        const parentTurn = sent.filter((s) => s.role === 'parent').length;
        if (body.role === 'helper') {
          // The first sibling's response takes a while to begin; the others must wait for it.
          if (firstHelperAt === undefined) {
            firstHelperAt = now;
            return { text: 'helper done', delayMs: 150 };
          }
          return { text: 'helper done' };
        }
        if (body.role === 'fork') return { text: 'fork done' };
        if (parentTurn === 1) {
          return { text: 'Looking first.', toolCalls: [{ name: 'Echo', input: { text: 'x' } }] };
        }
        if (parentTurn === 2) {
          return {
            toolCalls: [
              agentCall('help one', { subagent_type: 'helper' }),
              agentCall('help two', { subagent_type: 'helper' }),
              agentCall('help three', { subagent_type: 'helper' }),
              agentCall('FORK-TASK summarize', { forkContext: true }),
            ],
          };
        }
        return { text: 'all done' };
      },
    });
    try {
      const model = await resolveModel('anthropic:claude-sonnet-4-5', {
        env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url },
      });
      const { result } = await runToEnd(
        query({
          prompt: 'PARENT-TASK',
          options: {
            model,
            systemPrompt: 'PARENT-ROLE',
            tools: [echoTool],
            cwd: await makeTempDir(),
            agents: { helper: { description: 'Helps.', prompt: 'HELPER-ROLE', tools: ['Echo'] } },
          },
        }),
      );
      expect(result.status).toBe('completed');
    } finally {
      await server.close();
    }

    const parent = sent.filter((s) => s.role === 'parent');
    const helpers = sent.filter((s) => s.role === 'helper');
    const [fork] = sent.filter((s) => s.role === 'fork');
    expect([parent.length, helpers.length, fork !== undefined]).toEqual([3, 3, true]);

    // Across a parent's turns: same tools and system prompt; each request extends the last.
    for (const turn of [1, 2]) {
      const earlier = parent[turn - 1]!;
      const later = parent[turn]!;
      expect(later.tools).toEqual(earlier.tools);
      expect(later.system).toEqual(earlier.system);
      expect(later.blocks.slice(0, earlier.blocks.length)).toEqual(earlier.blocks);
    }
    // Siblings of one definition: the same tools and system prompt, byte for byte.
    for (const helper of helpers) {
      expect(helper.tools).toEqual(helpers[0]!.tools);
      expect(helper.system).toEqual(helpers[0]!.system);
    }
    // A forked child: its parent's last request, then one more block (its task).
    expect(fork!.tools).toEqual(parent[1]!.tools);
    expect(fork!.system).toEqual(parent[1]!.system);
    expect(fork!.blocks.slice(0, parent[1]!.blocks.length)).toEqual(parent[1]!.blocks);
    expect(fork!.blocks).toHaveLength(parent[1]!.blocks.length + 1);
    // At most four breakpoints anywhere (Anthropic refuses more).
    for (const request of sent) expect(request.breakpoints).toBeLessThanOrEqual(4);
    // The other siblings went only once the first one's response had begun.
    const [first, ...rest] = helpers.map((helper) => helper.arrivedAt);
    for (const at of rest) expect(at - first!).toBeGreaterThanOrEqual(140);
    // The fork did not wait: its prefix was its parent's, already written.
    expect(fork!.arrivedAt - first!).toBeLessThan(140);
  });
});
