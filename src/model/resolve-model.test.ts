import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configErrorOf } from '../testing/caught-errors.js';
import { type MockLlmServer, startMockLlmServer } from '../testing/mock-llm/server.js';
import { resolveModel } from './resolve-model.js';

const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];

let server: MockLlmServer;
beforeEach(async () => {
  server = await startMockLlmServer();
});
afterEach(() => server.close());

describe('resolveModel', () => {
  it('resolves each provider to a model with that id and provider', async () => {
    const env = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };
    const baseUrl = `${server.url}/v1`;

    const anthropic = await resolveModel('anthropic:claude-sonnet-4-5', { env });
    const openai = await resolveModel('openai:gpt-4.1', { env });
    const compatible = await resolveModel('openai-compatible:qwen3:8b', { env, baseUrl });

    expect([anthropic.provider, anthropic.modelId]).toEqual([
      'anthropic.messages',
      'claude-sonnet-4-5',
    ]);
    expect([openai.provider, openai.modelId]).toEqual(['openai.chat', 'gpt-4.1']);
    expect([compatible.provider, compatible.modelId]).toEqual([
      'openai-compatible.chat',
      'qwen3:8b',
    ]);
  });

  it('sends openai models to the Chat Completions API with the key from OPENAI_API_KEY', async () => {
    server.enqueue({ text: 'ok' });
    const model = await resolveModel('openai:gpt-4.1', {
      env: { OPENAI_API_KEY: 'sk-from-env', OPENAI_BASE_URL: `${server.url}/v1` },
    });
    await model.doGenerate({ prompt });

    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-from-env');
  });

  it.each([
    ['without /v1, as Anthropic’s SDK and Claude Code write it', ''],
    ['with /v1, as the AI SDK writes it', '/v1'],
  ])('takes ANTHROPIC_BASE_URL %s', async (_, suffix) => {
    server.enqueue({ text: 'ok' });
    const model = await resolveModel('anthropic:claude-haiku-4-5', {
      env: { ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: `${server.url}${suffix}` },
    });
    await model.doGenerate({ prompt });

    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-ant');
  });

  it('sends no Authorization header to an openai-compatible server when no key is set', async () => {
    server.enqueue({ text: 'ok' });
    const model = await resolveModel('openai-compatible:llama3', {
      env: {},
      baseUrl: `${server.url}/v1`,
    });
    await model.doGenerate({ prompt });

    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('takes an openai-compatible key from OPENAI_COMPATIBLE_API_KEY, then WARREN_API_KEY', async () => {
    server.enqueue({ text: 'ok' }, { text: 'ok' });
    const baseUrl = `${server.url}/v1`;
    const both = await resolveModel('openai-compatible:m', {
      env: { OPENAI_COMPATIBLE_API_KEY: 'first', WARREN_API_KEY: 'second' },
      baseUrl,
    });
    const warrenOnly = await resolveModel('openai-compatible:m', {
      env: { WARREN_API_KEY: 'second' },
      baseUrl,
    });
    await both.doGenerate({ prompt });
    await warrenOnly.doGenerate({ prompt });

    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer first',
      'Bearer second',
    ]);
  });

  it('takes the openai-compatible server from WARREN_BASE_URL when --base-url is absent', async () => {
    server.enqueue({ text: 'ok' });
    const model = await resolveModel('openai-compatible:m', {
      env: { WARREN_BASE_URL: `${server.url}/v1` },
    });
    await model.doGenerate({ prompt });

    expect(server.requests).toHaveLength(1);
  });

  it('does not send anthropic models to the --base-url meant for openai-compatible', async () => {
    server.enqueue({ text: 'ok' });
    const model = await resolveModel('anthropic:claude-haiku-4-5', {
      env: { ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: server.url },
      baseUrl: 'http://127.0.0.1:1/v1',
    });
    await model.doGenerate({ prompt });

    expect(server.requests).toHaveLength(1);
  });

  it('refuses an unknown provider and lists the valid ones', async () => {
    const error = await configErrorOf(resolveModel('gemini:pro', { env: {} }));

    expect(error.message).toBe(
      '--model gemini:pro: unknown provider "gemini" (use one of anthropic:<model>, openai:<model>, openai-compatible:<model>, scripted:<model>)',
    );
  });

  it('refuses a spec without a provider', async () => {
    const error = await configErrorOf(resolveModel('sonnet', { env: {} }));

    expect(error.message).toContain('--model sonnet: is not of the form provider:model');
  });

  it('refuses a spec without a model id', async () => {
    const error = await configErrorOf(
      resolveModel('anthropic:', { env: { ANTHROPIC_API_KEY: 'k' } }),
    );

    expect(error.message).toBe('--model anthropic:: names no model (write anthropic:<model-id>)');
  });

  it('names where the spec came from', async () => {
    const error = await configErrorOf(
      resolveModel('anthropic:', { env: {}, source: 'agents/reviewer.md: model' }),
    );

    expect(error.where).toBe('agents/reviewer.md: model anthropic:');
  });

  it.each([
    ['anthropic:claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['openai:gpt-4.1', 'OPENAI_API_KEY'],
  ])('refuses %s without %s and says how to set it', async (spec, variable) => {
    const error = await configErrorOf(resolveModel(spec, { env: { [variable]: '  ' } }));

    expect(error.message).toBe(
      `--model ${spec}: needs ${variable}, which is not set (export ${variable}=<your key>, or choose another --model)`,
    );
  });

  it('refuses openai-compatible without a server address', async () => {
    const error = await configErrorOf(resolveModel('openai-compatible:llama3', { env: {} }));

    expect(error.message).toBe(
      '--model openai-compatible:llama3: needs the address of the server (pass --base-url or set WARREN_BASE_URL, e.g. http://localhost:11434/v1 for Ollama)',
    );
  });

  it.each(['localhost:11434/v1', 'not a url', 'ftp://example.test/v1'])(
    'refuses the base URL %s',
    async (baseUrl) => {
      const error = await configErrorOf(resolveModel('openai-compatible:m', { env: {}, baseUrl }));

      expect(error.message).toBe(
        `--base-url ${baseUrl}: is not an http(s) URL (give the server's address, e.g. http://localhost:11434/v1 for Ollama)`,
      );
    },
  );

  it.each([
    ['--base-url', { baseUrl: 'http://admin:hunter22@127.0.0.1:8080/v1' }],
    ['--base-url', { baseUrl: 'admin:hunter22@127.0.0.1:8080/v1' }],
    ['WARREN_BASE_URL', { env: { WARREN_BASE_URL: 'https://admin:hunter22@llm.test/v1' } }],
  ])('refuses a %s with a user and password, never repeating them', async (where, options) => {
    const error = await configErrorOf(resolveModel('openai-compatible:m', { env: {}, ...options }));

    expect(error.where).toMatch(new RegExp(`^${where} .*<credentials>@`));
    expect(error.message).not.toMatch(/admin|hunter22/);
  });

  it('names the variable when an endpoint variable holds a bad URL', async () => {
    const error = await configErrorOf(
      resolveModel('openai:gpt-4.1', { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'nope' } }),
    );

    expect(error.where).toBe('OPENAI_BASE_URL nope');
  });
});
