// Every failed model call is one line a person can act on: the model and so its provider, the
// server's address, what happened there, and the likely fix.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../testing/caught-errors.js';
import { closedPort } from '../testing/closed-port.js';
import { type MockLlmServer, startMockLlmServer } from '../testing/mock-llm/server.js';
import { describeModelError, describeModelFailure } from './describe-model-error.js';
import { RequestTimeoutError } from './request-timeout.js';
import { resolveModel } from './resolve-model.js';

const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];

let server: MockLlmServer;
beforeEach(async () => {
  server = await startMockLlmServer();
});
afterEach(() => server.close());

/** The error of one call of `spec` against the mock server, answered with `reply`. */
async function failureOf(
  spec: string,
  reply: Parameters<MockLlmServer['enqueue']>[0],
  options: { env?: Record<string, string>; baseUrl?: string } = {},
) {
  server.enqueue(reply);
  const env = options.env ?? {};
  const model = await resolveModel(spec, { env, baseUrl: options.baseUrl });
  return rejectionOf(model.doGenerate({ prompt }));
}

describe('describeModelError', () => {
  it('turns a refused connection into one line naming --base-url', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const model = await resolveModel('openai-compatible:m', { env: {}, baseUrl });
    const error = await rejectionOf(model.doGenerate({ prompt }));

    expect(describeModelError(error, { spec: 'openai-compatible:m', env: {}, baseUrl })).toMatch(
      /^--base-url: http:\/\/127\.0\.0\.1:\d+\/v1 is unreachable: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(is the server running\?\)$/,
    );
  });

  it('says a port that fetch blocks is one to change', async () => {
    const baseUrl = 'http://127.0.0.1:9/v1';
    const model = await resolveModel('openai-compatible:m', { env: {}, baseUrl });
    const error = await rejectionOf(model.doGenerate({ prompt }));

    expect(describeModelError(error, { spec: 'openai-compatible:m', env: {}, baseUrl })).toBe(
      '--base-url: http://127.0.0.1:9/v1 is unreachable: fetch refuses this port (run the server on another port)',
    );
  });

  it('names the key variable when the server refuses the key', async () => {
    const env = { ANTHROPIC_API_KEY: 'wrong', ANTHROPIC_BASE_URL: server.url };
    const error = await failureOf(
      'anthropic:claude-sonnet-4-5',
      { status: 401, errorMessage: 'invalid x-api-key' },
      { env },
    );

    expect(describeModelError(error, { spec: 'anthropic:claude-sonnet-4-5', env })).toBe(
      `--model anthropic:claude-sonnet-4-5: ${server.url} answered 401: invalid x-api-key (check ANTHROPIC_API_KEY)`,
    );
  });

  it('says which variables to set when an openai-compatible server wants a key', async () => {
    const baseUrl = `${server.url}/v1`;
    const error = await failureOf(
      'openai-compatible:m',
      { status: 401, errorMessage: 'Missing bearer token' },
      { baseUrl },
    );

    expect(describeModelError(error, { spec: 'openai-compatible:m', env: {}, baseUrl })).toBe(
      `--model openai-compatible:m: ${baseUrl} answered 401: Missing bearer token (set OPENAI_COMPATIBLE_API_KEY or WARREN_API_KEY)`,
    );
  });

  it('calls a 404 that names the model an unknown model', async () => {
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` };
    const error = await failureOf(
      'openai:gpt-9',
      { status: 404, errorMessage: 'The model `gpt-9` does not exist' },
      { env },
    );

    expect(describeModelError(error, { spec: 'openai:gpt-9', env })).toBe(
      `--model openai:gpt-9: ${server.url}/v1 answered 404: The model \`gpt-9\` does not exist (check the model id)`,
    );
  });

  it('blames a wrong ANTHROPIC_BASE_URL, not the model id, for a 404 from another server', async () => {
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: `${server.url}/proxy` };
    server.enqueue({ text: 'never asked' });
    const model = await resolveModel('anthropic:claude-sonnet-4-5', { env });
    const error = await rejectionOf(model.doGenerate({ prompt }));

    expect(describeModelError(error, { spec: 'anthropic:claude-sonnet-4-5', env })).toBe(
      `--model anthropic:claude-sonnet-4-5: ${server.url}/proxy answered 404: Not Found (check ANTHROPIC_BASE_URL: nothing answers at ${server.url}/proxy/v1/messages)`,
    );
  });

  it('says that a 400 from an openai-compatible server most often means tool calling is off', async () => {
    const baseUrl = `${server.url}/v1`;
    const message = '"auto" tool choice requires --enable-auto-tool-choice to be set';
    const error = await failureOf(
      'openai-compatible:qwen',
      { status: 400, errorMessage: message },
      { baseUrl },
    );

    expect(describeModelError(error, { spec: 'openai-compatible:qwen', env: {}, baseUrl })).toBe(
      `--model openai-compatible:qwen: ${baseUrl} answered 400: ${message} (the server refused the request; most often its tool calling is off: start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>, llama.cpp with --jinja)`,
    );
  });

  it.each([
    [500, 'openai-compatible:m', 'the server failed, also when retried; its log says why'],
    [500, 'anthropic:claude-sonnet-4-5', 'the provider failed, also when retried; try again later'],
    [
      529,
      'anthropic:claude-sonnet-4-5',
      'the provider is overloaded, also when retried; try again later',
    ],
    [429, 'openai:gpt-4.1', 'rate limited, also when retried; wait, or lower --max-parallel'],
  ])('names the server and status of a %i from %s, and what to do', async (status, spec, fix) => {
    const env = {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: server.url,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${server.url}/v1`,
    };
    const baseUrl = `${server.url}/v1`;
    const error = await failureOf(spec, { status, errorMessage: 'boom' }, { env, baseUrl });

    expect(describeModelError(error, { spec, env, baseUrl })).toMatch(
      new RegExp(
        `^--model ${spec}: ${server.url}(/v1)? answered ${status}: .*boom.* \\(${fix}\\)$`,
      ),
    );
  });

  it('names the server that did not answer in time', () => {
    const baseUrl = 'http://127.0.0.1:8000/v1';
    const options = { spec: 'openai-compatible:m', env: {}, baseUrl };
    expect(describeModelError(new RequestTimeoutError(120_000, 'response'), options)).toBe(
      '--model openai-compatible:m: no answer from http://127.0.0.1:8000/v1 in 120 s (is the server overloaded or stuck? For a slow model, raise --request-timeout)',
    );
    expect(describeModelFailure(new RequestTimeoutError(300, 'stream'), options)).toBe(
      '--model openai-compatible:m: the reply from http://127.0.0.1:8000/v1 stopped: nothing more came for 0.3 s',
    );
  });

  it('leaves failures that are not about the model call to the caller', () => {
    expect(describeModelError(new Error('boom'), { spec: 'openai:gpt-4.1' })).toBeUndefined();
    expect(describeModelFailure(new Error('boom'), { spec: 'openai:gpt-4.1' })).toBe('boom');
  });
});
