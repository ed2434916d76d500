import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockLlmServer, startMockLlmServer } from './server.js';

let server: MockLlmServer;
beforeEach(async () => {
  server = await startMockLlmServer();
});
afterEach(() => server.close());

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const chatRequest = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] };
const messagesRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
};

interface ChatCompletion {
  choices: Array<{ message: { content: string | null }; finish_reason: string }>;
}

interface AnthropicMessage {
  content: unknown[];
  stop_reason: string;
}

async function chatCompletionOf(response: Promise<Response>): Promise<ChatCompletion> {
  return (await (await response).json()) as ChatCompletion;
}

async function messageOf(response: Promise<Response>): Promise<AnthropicMessage> {
  return (await (await response).json()) as AnthropicMessage;
}

async function errorOf(response: Response): Promise<{ error: { message: string } }> {
  return (await response.json()) as { error: { message: string } };
}

/** The `data:` payloads of an SSE body, `[DONE]` kept as a string. */
function dataOf(sse: string): unknown[] {
  return sse
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => {
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      const payload = data?.slice('data: '.length) ?? '';
      return payload === '[DONE]' ? payload : JSON.parse(payload);
    });
}

function eventNamesOf(sse: string): string[] {
  return [...sse.matchAll(/^event: (\S+)$/gm)].map((match) => match[1] ?? '');
}

describe('startMockLlmServer', () => {
  it('listens on loopback at a random port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves queued replies in order and records each request', async () => {
    server.enqueue({ text: 'first' }, { text: 'second' });

    const first = await chatCompletionOf(post('/v1/chat/completions', chatRequest));
    const second = await messageOf(
      post('/v1/messages', messagesRequest, { 'x-api-key': 'sk-ant' }),
    );

    expect(first.choices[0]?.message.content).toBe('first');
    expect(second.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(server.requests).toMatchObject([
      { method: 'POST', path: '/v1/chat/completions', api: 'openai-chat', body: chatRequest },
      {
        path: '/v1/messages',
        api: 'anthropic-messages',
        headers: { 'x-api-key': 'sk-ant' },
        body: messagesRequest,
      },
    ]);
    expect(server.pendingReplies).toBe(0);
  });

  it('takes replies given at start before enqueued ones', async () => {
    await server.close();
    server = await startMockLlmServer({ replies: [{ text: 'from options' }] });
    server.enqueue({ text: 'enqueued' });

    const first = await chatCompletionOf(post('/v1/chat/completions', chatRequest));

    expect(first.choices[0]?.message.content).toBe('from options');
    expect(server.pendingReplies).toBe(1);
  });

  it('asks the handler first and takes the queue when it returns nothing', async () => {
    await server.close();
    server = await startMockLlmServer({
      handler: (request) =>
        JSON.stringify(request.body).includes('dynamic') ? { text: 'from handler' } : undefined,
    });
    server.enqueue({ text: 'from queue' });

    const queued = await chatCompletionOf(post('/v1/chat/completions', chatRequest));
    const handled = await chatCompletionOf(
      post('/v1/chat/completions', {
        ...chatRequest,
        messages: [{ role: 'user', content: 'dynamic' }],
      }),
    );

    expect(queued.choices[0]?.message.content).toBe('from queue');
    expect(handled.choices[0]?.message.content).toBe('from handler');
  });

  it('answers 500 in the API’s error shape when no reply is scripted', async () => {
    const chat = await post('/v1/chat/completions', chatRequest);
    const messages = await post('/v1/messages', messagesRequest);

    expect(chat.status).toBe(500);
    expect((await errorOf(chat)).error.message).toContain('no reply was scripted for request #1');
    expect(messages.status).toBe(500);
    expect(await messages.json()).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringContaining('no reply was scripted') },
    });
  });

  it('answers 500 with the reason when the handler throws', async () => {
    await server.close();
    server = await startMockLlmServer({
      handler: () => {
        throw new Error('handler broke');
      },
    });

    const response = await post('/v1/chat/completions', chatRequest);

    expect(response.status).toBe(500);
    expect((await errorOf(response)).error.message).toContain('handler broke');
  });

  it('answers an unknown path with 404 JSON and records it', async () => {
    const response = await fetch(`${server.url}/v1/responses`);

    expect(response.status).toBe(404);
    expect((await errorOf(response)).error.message).toBe(
      'mock-llm-server: no route for GET /v1/responses',
    );
    expect(server.requests).toMatchObject([{ method: 'GET', path: '/v1/responses' }]);
  });

  it('answers a body that is not JSON with 400', async () => {
    server.enqueue({ text: 'unused' });
    const response = await post('/v1/messages', '{not json');

    expect(response.status).toBe(400);
    expect(server.requests[0]?.body).toBe('{not json');
    expect(server.pendingReplies).toBe(1);
  });

  it('sends OpenAI errors as {error: {message, type}} with the scripted headers', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '3' } });
    const response = await post('/v1/chat/completions', chatRequest);

    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(await response.json()).toEqual({
      error: {
        message: expect.any(String),
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it.each([
    [529, 'overloaded_error'],
    [429, 'rate_limit_error'],
    [401, 'authentication_error'],
    [404, 'not_found_error'],
    [500, 'api_error'],
  ])('sends an Anthropic %i as {type: error, error: {type: %s}}', async (status, type) => {
    server.enqueue({ status, errorMessage: 'scripted failure' });
    const response = await post('/v1/messages', messagesRequest);

    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type, message: 'scripted failure' },
    });
  });

  it('sends a custom error body as given', async () => {
    server.enqueue({ status: 502, errorBody: '<html>Bad gateway</html>' });
    const response = await post('/v1/messages', messagesRequest);

    expect(response.status).toBe(502);
    expect(await response.text()).toBe('<html>Bad gateway</html>');
  });
});

describe('OpenAI Chat Completions wire format', () => {
  it('answers a JSON request with a chat.completion holding tool calls and usage', async () => {
    server.enqueue({
      toolCalls: [{ id: 'call_1', name: 'Read', input: { file_path: 'a.ts' } }],
      usage: { input: 10, output: 5, cacheRead: 4 },
    });
    const body = await chatCompletionOf(post('/v1/chat/completions', chatRequest));

    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4.1',
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'Read', arguments: '{"file_path":"a.ts"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 14,
        completion_tokens: 5,
        total_tokens: 19,
        prompt_tokens_details: { cached_tokens: 4 },
      },
    });
  });

  it('streams deltas, then the finish reason, the usage chunk when asked, and [DONE]', async () => {
    server.enqueue({
      text: ['Hel', 'lo'],
      toolCalls: [{ name: 'Glob', input: { pattern: '**/*.ts' } }],
      usage: { input: 7, output: 3 },
    });
    const response = await post('/v1/chat/completions', {
      ...chatRequest,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = dataOf(await response.text()) as Array<{
      choices: Array<{
        delta: {
          content?: string;
          tool_calls?: Array<{ index: number; id?: string; function: { arguments: string } }>;
        };
        finish_reason: string | null;
      }>;
      usage?: unknown;
    }>;

    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(chunks.at(-1)).toBe('[DONE]');
    const deltas = chunks.slice(0, -1).flatMap((chunk) => chunk.choices.map((c) => c.delta));
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe('Hello');
    const toolDeltas = deltas.flatMap((delta) => delta.tool_calls ?? []);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: 'call_mock1', type: 'function' });
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas.map((toolCall) => toolCall.function.arguments).join('')).toBe(
      '{"pattern":"**/*.ts"}',
    );
    expect(chunks.at(-3)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
    expect(chunks.at(-2)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
  });

  it('leaves usage out of a stream that did not ask for it', async () => {
    server.enqueue({ text: 'hi' });
    const response = await post('/v1/chat/completions', { ...chatRequest, stream: true });
    const chunks = dataOf(await response.text());

    expect(
      chunks.some((chunk) => typeof chunk === 'object' && chunk !== null && 'usage' in chunk),
    ).toBe(false);
  });

  it('ends a truncated reply with finish_reason length', async () => {
    server.enqueue({ text: 'cut', truncated: true });
    const body = await chatCompletionOf(post('/v1/chat/completions', chatRequest));

    expect(body.choices[0]?.finish_reason).toBe('length');
  });
});

describe('Anthropic Messages wire format', () => {
  it('answers a JSON request with a message holding text, tool_use and cache usage', async () => {
    server.enqueue({
      text: 'Looking.',
      toolCalls: [{ name: 'Read', input: { file_path: 'a.ts' } }],
      usage: { input: 10, output: 5, cacheRead: 100, cacheWrite: 20 },
    });
    const body = await messageOf(post('/v1/messages', messagesRequest));

    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_mock1', name: 'Read', input: { file_path: 'a.ts' } },
      ],
      stop_reason: 'tool_use',
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 20,
      },
    });
  });

  it('streams the real event sequence', async () => {
    server.enqueue({ text: 'Two words', toolCalls: [{ name: 'Read', input: { f: 1 } }] });
    const response = await post('/v1/messages', { ...messagesRequest, stream: true });
    const sse = await response.text();

    expect(eventNamesOf(sse)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const data = dataOf(sse);
    expect(data[3]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Two ' },
    });
    expect(data[6]).toMatchObject({
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_mock1', name: 'Read', input: {} },
    });
    expect(data[8]).toMatchObject({
      delta: { type: 'input_json_delta', partial_json: '{"f":1}' },
    });
    expect(data[10]).toMatchObject({
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: expect.any(Number) },
    });
  });

  it('ends a truncated reply with stop_reason max_tokens', async () => {
    server.enqueue({ text: 'cut', truncated: true });
    const body = await messageOf(post('/v1/messages', messagesRequest));

    expect(body.stop_reason).toBe('max_tokens');
  });

  it('sends an in-stream overloaded error event when scripted', async () => {
    server.enqueue({ text: 'a b c', errorEventAfterChunks: 1 });
    const sse = await (await post('/v1/messages', { ...messagesRequest, stream: true })).text();

    expect(eventNamesOf(sse)).toEqual(['message_start', 'error']);
    expect(dataOf(sse)[1]).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });
});

describe('broken connections', () => {
  it('drops the connection after the scripted number of chunks', async () => {
    server.enqueue({ text: 'one two three four', cutAfterChunks: 2 });
    const response = await post('/v1/chat/completions', { ...chatRequest, stream: true });
    const received: string[] = [];
    const decoder = new TextDecoder();
    const failure = await (async () => {
      try {
        for await (const chunk of response.body ?? []) received.push(decoder.decode(chunk));
      } catch (error) {
        return error;
      }
    })();

    expect(failure).toBeInstanceOf(Error);
    expect(dataOf(received.join(''))).toHaveLength(2);
  });

  it('streams a repeated text as fast as the client reads, counting the bytes sent', async () => {
    const piece = 'x'.repeat(64 * 1024);
    server.enqueue({ text: [piece], repeat: 1000 });
    const response = await post('/v1/chat/completions', { ...chatRequest, stream: true });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let read = 0;
    while (read < 1024 * 1024) read += (await reader.read()).value?.byteLength ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 100));

    // 64 MB were scripted; the server waits for the reader instead of buffering them all.
    expect(server.requests[0]?.responseBytes).toBeLessThan(16 * 1024 * 1024);
    await reader.cancel();
  });

  it('ends a stream cleanly but early when scripted', async () => {
    server.enqueue({ text: 'one two three four', endAfterChunks: 2 });
    const response = await post('/v1/chat/completions', { ...chatRequest, stream: true });

    expect(dataOf(await response.text())).toHaveLength(2);
  });

  it('drops a JSON reply before its body when cut', async () => {
    server.enqueue({ text: 'never', cutAfterChunks: 0 });

    await expect(post('/v1/messages', messagesRequest)).rejects.toThrow();
  });

  it('closes while a stream is still open, ending it for the client', async () => {
    server.enqueue({ text: 'one two three', chunkDelayMs: 60_000 });
    const response = await post('/v1/messages', { ...messagesRequest, stream: true });
    const reading = response.text();

    await server.close();

    await expect(reading).rejects.toThrow();
  });
});
