// An agent's effort, temperature and prompt-cache lifetime at the wire: what a definition or an
// Agent call sets reaches the provider's request body, on Anthropic's API and an OpenAI-compatible
// one, and an agent that sets nothing sends nothing of them.
import { describe, expect, it } from 'vitest';
import { resolveModel } from './model/resolve-model.js';
import { query } from './query.js';
import { type RecordedRequest, startMockLlmServer } from './testing/mock-llm/server.js';
import { runToEnd } from './testing/run-events.js';
import { makeTempDir } from './testing/temp-dir.js';

type Body = Record<string, unknown> & { system?: unknown; messages?: unknown };

/** The bodies the helper and the parent sent, told apart by their system prompts. */
function split(requests: RecordedRequest[]): { parent: Body[]; helper: Body[] } {
  const bodies = requests.map((request) => request.body as Body);
  const isHelper = (body: Body) => JSON.stringify(body).includes('HELPER-ROLE');
  return { parent: bodies.filter((b) => !isHelper(b)), helper: bodies.filter(isHelper) };
}

function cacheControls(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(cacheControls);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'cache_control' ? [inner] : cacheControls(inner),
  );
}

async function run(
  spec: string,
  env: (url: string) => Record<string, string>,
  helper: Record<string, unknown>,
  call: Record<string, unknown> = {},
) {
  let turn = 0;
  const server = await startMockLlmServer({
    handler(request) {
      if (JSON.stringify(request.body).includes('HELPER-ROLE')) return { text: 'helped' };
      turn++;
      if (turn === 1) {
        return {
          toolCalls: [
            {
              name: 'Agent',
              input: { description: 'help', prompt: 'help me', subagent_type: 'helper', ...call },
            },
          ],
        };
      }
      return { text: 'done' };
    },
  });
  try {
    const model = await resolveModel(spec, { env: env(server.url), baseUrl: `${server.url}/v1` });
    const { result } = await runToEnd(
      query({
        prompt: 'PARENT-TASK',
        options: {
          model,
          systemPrompt: 'PARENT-ROLE',
          cwd: await makeTempDir(),
          agents: {
            helper: { description: 'Helps.', prompt: 'HELPER-ROLE', tools: [], ...helper },
          },
        },
      }),
    );
    expect(result.status).toBe('completed');
    return split(server.requests);
  } finally {
    await server.close();
  }
}

describe("an agent's model settings at the wire", () => {
  const anthropic = (url: string) => ({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: url });

  it('sends Anthropic the call’s effort over the definition’s, and a 1h cache lifetime', async () => {
    const low = await run('anthropic:claude-sonnet-4-5', anthropic, {
      effort: 'low',
      cacheTtl: '1h',
    });
    const high = await run(
      'anthropic:claude-sonnet-4-5',
      anthropic,
      { effort: 'low', cacheTtl: '1h' },
      { effort: 'high' },
    );
    const budget = (body: Body | undefined) =>
      (body?.thinking as { budget_tokens?: number } | undefined)?.budget_tokens ?? 0;
    expect(budget(low.helper[0])).toBeGreaterThan(0);
    expect(budget(high.helper[0])).toBeGreaterThan(budget(low.helper[0]));
    const [helper] = high.helper;
    const controls = cacheControls(helper);
    expect(controls.length).toBeGreaterThan(0);
    for (const control of controls) expect(control).toEqual({ type: 'ephemeral', ttl: '1h' });
    // The parent set none of it: its requests carry none of it.
    for (const body of high.parent) {
      expect(body.temperature).toBeUndefined();
      expect(body.thinking).toBeUndefined();
      for (const control of cacheControls(body)) expect(control).toEqual({ type: 'ephemeral' });
    }
  });

  it('sends Anthropic the definition’s temperature when it does not think', async () => {
    const sent = await run('anthropic:claude-sonnet-4-5', anthropic, { temperature: 0.2 });
    expect(sent.helper[0]?.temperature).toBe(0.2);
  });

  it('sends an OpenAI-compatible server `reasoning_effort` and `temperature`', async () => {
    const sent = await run(
      'openai-compatible:local-model',
      () => ({}),
      { temperature: 0.7 },
      { effort: 'high' },
    );
    const [helper] = sent.helper;
    expect(helper).toMatchObject({ reasoning_effort: 'high', temperature: 0.7 });
    for (const body of sent.parent) {
      expect(body.reasoning_effort).toBeUndefined();
      expect(body.temperature).toBeUndefined();
    }
  });

  it('sends the settings of the definition the main agent runs as (--agent)', async () => {
    const server = await startMockLlmServer({ replies: [{ text: 'done' }] });
    try {
      const model = await resolveModel('openai-compatible:local-model', {
        env: {},
        baseUrl: `${server.url}/v1`,
      });
      const { result } = await runToEnd(
        query({
          prompt: 'go',
          options: {
            model,
            cwd: await makeTempDir(),
            agent: 'lead',
            agents: {
              lead: { description: 'Leads.', prompt: 'LEAD', effort: 'low', temperature: 0.4 },
            },
          },
        }),
      );
      expect(result.status).toBe('completed');
      expect(server.requests[0]?.body).toMatchObject({ reasoning_effort: 'low', temperature: 0.4 });
    } finally {
      await server.close();
    }
  });
});
