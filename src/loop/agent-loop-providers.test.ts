// The loop with the real AI SDK providers, over real HTTP and SSE, against the loopback server.
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../core/events.js';
import { resolveModel } from '../model/resolve-model.js';
import { type MockLlmServer, startMockLlmServer } from '../testing/mock-llm/server.js';
import { runToEnd } from '../testing/run-events.js';
import { echoTool } from '../testing/stub-tools.js';
import { type AgentLoopOptions, agentLoop } from './agent-loop.js';

let server: MockLlmServer;

const toolOutputsOf = (result: RunResult) =>
  result.messages.flatMap((message) =>
    message.role === 'tool' ? message.content.map((part) => part.output) : [],
  );
beforeEach(async () => {
  server = await startMockLlmServer();
});
afterEach(async () => {
  await server.close();
});

const PROVIDERS = [
  { spec: 'openai-compatible:test-model', env: {} },
  { spec: 'openai:gpt-4.1-mini', env: { OPENAI_API_KEY: 'sk-test' } },
  { spec: 'anthropic:claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: 'sk-ant-test' } },
] as const;

async function runAgainst(
  provider: (typeof PROVIDERS)[number],
  options: Partial<AgentLoopOptions> = {},
) {
  const base = `${server.url}/v1`;
  const env = { ...provider.env, OPENAI_BASE_URL: base, ANTHROPIC_BASE_URL: base };
  const model = await resolveModel(provider.spec, { baseUrl: base, env });
  return runToEnd(
    agentLoop({
      prompt: 'say hi through the tool',
      options: {
        model,
        tools: [echoTool],
        systemPrompt: 'You are a test agent.',
        retry: { initialDelayMs: 1, maxDelayMs: 5 },
        ...options,
      },
    }),
  );
}

describe.each(PROVIDERS)('agentLoop() over $spec', (provider) => {
  it('completes a tool-using task and sends the tool result back in the wire format', async () => {
    server.enqueue(
      { text: 'Calling the tool.', toolCalls: [{ name: 'Echo', input: { text: 'hi' } }] },
      { text: 'The tool said echo: hi.', usage: { input: 200, output: 20, cacheRead: 50 } },
    );
    const { result, events } = await runAgainst(provider);
    expect(result).toMatchObject({
      status: 'completed',
      result: 'The tool said echo: hi.',
      numTurns: 2,
      toolCalls: 1,
    });
    expect(result.usage.outputTokens).toBeGreaterThan(20);
    expect(result.usage.cacheReadInputTokens).toBe(50);
    expect(events.filter((event) => event.type === 'message_delta').length).toBeGreaterThan(2);
    const secondRequest = JSON.stringify(server.requests[1]?.body);
    expect(secondRequest).toContain('echo: hi');
    expect(secondRequest).toContain('Echo');
  });

  it('with stream: false, asks for whole replies and reports the text as one delta', async () => {
    server.enqueue(
      { text: 'Calling the tool.', toolCalls: [{ name: 'Echo', input: { text: 'hi' } }] },
      { text: 'The tool said echo: hi.' },
    );
    const { result, events } = await runAgainst(provider, { stream: false });
    expect(result).toMatchObject({ status: 'completed', result: 'The tool said echo: hi.' });
    expect(toolOutputsOf(result)).toEqual(['echo: hi']);
    expect(
      server.requests.map((request) => (request.body as { stream?: boolean }).stream),
    ).not.toContain(true);
    const deltas = events.filter((event) => event.type === 'message_delta');
    expect(deltas.map((event) => event.type === 'message_delta' && event.text)).toEqual([
      'Calling the tool.',
      'The tool said echo: hi.',
    ]);
  });

  it('waits out a 429 as retry-after asks, then carries on', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '0.03' } }, { text: 'after the wait' });
    const { result, events } = await runAgainst(provider);
    expect(result.result).toBe('after the wait');
    const retries = events.filter((event) => event.type === 'retry');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, delayMs: 30 })]);
  });

  it('retries a stream cut in the middle of the reply', async () => {
    server.enqueue(
      { text: 'this reply will break off somewhere', cutAfterChunks: 3 },
      { text: 'complete reply' },
    );
    const { result, events } = await runAgainst(provider);
    expect(result.result).toBe('complete reply');
    expect(events.some((event) => event.type === 'retry')).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['answers nothing', { text: 'never sent', delayMs: 60_000 }, /no answer from .* in 0\.2 s/],
    [
      'stops in the middle of its reply',
      { text: 'the first words and then silence', chunkDelayMs: 60_000 },
      // Some providers hand over the stream only once its first parts are in.
      /(the reply from .* stopped: nothing more came for|no answer from .* in) 0\.2 s/,
    ],
  ])('retries a server that %s, once the request timeout is up', async (_, silent, message) => {
    server.enqueue(silent, { text: 'answered this time' });
    const { result, events } = await runAgainst(provider, { requestTimeoutMs: 200 });
    expect(result).toMatchObject({ status: 'completed', result: 'answered this time' });
    const retries = events.filter((event) => event.type === 'retry');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1 })]);
    expect(retries[0]?.type === 'retry' && retries[0].error).toMatch(message);
    expect(retries[0]?.type === 'retry' && retries[0].error).toContain(server.url);
  });

  it('cancels the HTTP request in flight when the signal aborts', async () => {
    server.enqueue({ text: 'too slow', delayMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { result } = await runAgainst(provider, { signal: controller.signal });
    expect(result.status).toBe('cancelled');
  });

  it('names the model and the server when the stream is cut mid-reply on every attempt', async () => {
    for (let i = 0; i < 3; i++) server.enqueue({ text: 'one two three four', cutAfterChunks: 2 });
    const { result } = await runAgainst(provider, { retry: { maxRetries: 2, initialDelayMs: 1 } });
    expect(result.status).toBe('failed');
    expect(result.error).toContain(
      `--model ${provider.spec}: the reply from ${server.url}/v1 broke off: the stream was cut (`,
    );
    expect(result.error).toMatch(
      /\(the connection dropped mid-reply, also when retried; try again\)$/,
    );
  });

  it('names the model and the server when the connection is cut before the reply on every attempt', async () => {
    const cutter = createNetServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(cutter.address() as AddressInfo).port}/v1`;
      const env = { ...provider.env, OPENAI_BASE_URL: base, ANTHROPIC_BASE_URL: base };
      const model = await resolveModel(provider.spec, { baseUrl: base, env });
      const { result } = await runToEnd(
        agentLoop({
          prompt: 'hello?',
          options: { model, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 5 } },
        }),
      );
      expect(result.status).toBe('failed');
      expect(result.error).toMatch(
        new RegExp(
          `^--model ${provider.spec}: the connection to ${base.replaceAll('.', '\\.')} was cut before the reply began: other side closed \\(the stream was cut, also when retried; `,
        ),
      );
    } finally {
      await new Promise((resolve) => cutter.close(resolve));
    }
  });
});

describe('agentLoop() over openai-compatible', () => {
  it('answers arguments that are not JSON with an error result the model can fix', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'Echo', input: '{"text": "unterminated' }] },
      { text: 'I will send valid JSON next time.' },
    );
    const { result } = await runAgainst(PROVIDERS[0]);
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content[0]).toMatchObject({ isError: true });
    expect(toolMessage?.content[0]?.output).toMatch(/not valid JSON.*Send them again/);
    expect(result.status).toBe('completed');
  });

  it('ends the run with a clear message on an error that retrying cannot fix', async () => {
    server.enqueue({ status: 401, errorMessage: 'invalid api key' });
    const { result, events } = await runAgainst(PROVIDERS[0]);
    expect(result).toMatchObject({ status: 'failed', subtype: 'error_during_execution' });
    expect(result.error).toMatch(/answered 401.*invalid api key.*OPENAI_COMPATIBLE_API_KEY/);
    expect(events.some((event) => event.type === 'retry')).toBe(false);
  });
});

describe('a model call that keeps failing', () => {
  it('ends within the retry time limit, naming the server that did not answer', async () => {
    const hanging = await startMockLlmServer({ handler: () => ({ text: 'x', delayMs: 60_000 }) });
    try {
      const model = await resolveModel('openai-compatible:m', {
        baseUrl: `${hanging.url}/v1`,
        env: {},
      });
      const started = Date.now();
      const { result, events } = await runToEnd(
        agentLoop({
          prompt: 'hello?',
          options: {
            model,
            baseUrl: `${hanging.url}/v1`,
            requestTimeoutMs: 100,
            retry: { maxRetries: 1000, initialDelayMs: 10, maxDelayMs: 20, maxElapsedMs: 700 },
          },
        }),
      );
      expect(Date.now() - started).toBeLessThan(700 + 100 + 500);
      expect(events.filter((event) => event.type === 'retry').length).toBeGreaterThan(2);
      expect(result).toMatchObject({ status: 'failed' });
      expect(result.error).toBe(
        `--model openai-compatible:m: no answer from ${hanging.url}/v1 in 0.1 s (is the server overloaded or stuck? For a slow model, raise --request-timeout)`,
      );
    } finally {
      await hanging.close();
    }
  });

  it('stops reading a reply past the size cap, with an error that says so, and does not retry it', async () => {
    server.enqueue({ text: Array.from({ length: 40 }, () => 'x'.repeat(1000)) });
    const model = await resolveModel('openai-compatible:m', {
      baseUrl: `${server.url}/v1`,
      env: {},
      maxResponseBytes: 20_000,
    });
    const { result, events } = await runToEnd(
      agentLoop({ prompt: 'say a lot', options: { model, baseUrl: `${server.url}/v1` } }),
    );
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(
      new RegExp(
        `^--model openai-compatible:m: the reply from ${server.url}/v1 was larger than 20000 bytes and was cut off there \\(`,
      ),
    );
    expect(events.some((event) => event.type === 'retry')).toBe(false);
  });
});

describe('agentLoop() over anthropic', () => {
  it('marks cache breakpoints on the system prompt, the tools and the newest message', async () => {
    server.enqueue({ text: 'hello' });
    await runAgainst(PROVIDERS[2]);
    const body = server.requests[0]?.body as {
      system: Array<{ cache_control?: unknown }>;
      tools: Array<{ cache_control?: unknown }>;
      messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });
});
