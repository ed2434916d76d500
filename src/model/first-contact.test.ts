import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../testing/closed-port.js';
import { type MockLlmServer, startMockLlmServer } from '../testing/mock-llm/server.js';
import { FirstContact } from './first-contact.js';
import { endpointOfModel } from './model-endpoint.js';
import { resolveModel } from './resolve-model.js';

const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];

/** A model on `baseUrl` watched by a FirstContact, and its one request's outcome. */
async function firstRequest(spec: string, options: { baseUrl?: string; env: object }) {
  const contact = new FirstContact();
  const model = await resolveModel(spec, {
    ...options,
    env: options.env as Record<string, string>,
    fetch: contact.fetch,
  });
  const outcome = await model.doGenerate({ prompt }).then(
    () => 'answered',
    () => 'failed',
  );
  return { outcome, unreachable: contact.unreachable(endpointOfModel(model)) };
}

let server: MockLlmServer | undefined;
afterEach(() => server?.close());

describe('FirstContact', () => {
  it('sends nothing of its own: the first request the server sees is the chat request', async () => {
    server = await startMockLlmServer({ replies: [{ text: 'hello' }] });

    const { outcome, unreachable } = await firstRequest('openai-compatible:m', {
      baseUrl: `${server.url}/v1`,
      env: {},
    });

    expect(outcome).toBe('answered');
    expect(unreachable).toBeUndefined();
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions']);
  });

  it('calls a server that refuses the first request a setup mistake, naming the flag and the fix', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;

    const { outcome, unreachable } = await firstRequest('openai-compatible:m', {
      baseUrl,
      env: {},
    });

    expect(outcome).toBe('failed');
    expect(unreachable?.message).toMatch(
      /^--base-url: http:\/\/127\.0\.0\.1:\d+\/v1 is unreachable: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(is the server running\?\)$/,
    );
  });

  it('names WARREN_BASE_URL when the address came from there', async () => {
    const env = { WARREN_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` };

    const { unreachable } = await firstRequest('openai-compatible:m', { env });

    expect(unreachable?.where).toBe('WARREN_BASE_URL');
  });

  it('blames no setting for a server that answered once, even if it went away later', async () => {
    server = await startMockLlmServer({ replies: [{ text: 'hello' }] });
    const contact = new FirstContact();
    const model = await resolveModel('openai-compatible:m', {
      baseUrl: `${server.url}/v1`,
      env: {},
      fetch: contact.fetch,
    });
    await model.doGenerate({ prompt });
    await server.close();
    server = undefined;

    await expect(model.doGenerate({ prompt })).rejects.toThrow();
    expect(contact.unreachable(endpointOfModel(model))).toBeUndefined();
  });
});
