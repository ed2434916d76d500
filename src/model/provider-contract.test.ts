// What warren relies on from each real provider package, checked over a loopback socket against
// the mock server: the stream parts, usage, finish reasons, errors, and the request on the wire.
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4FunctionTool,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../testing/caught-errors.js';
import {
  type MockApi,
  type MockLlmServer,
  type MockReply,
  startMockLlmServer,
} from '../testing/mock-llm/server.js';
import { readStreamParts } from '../testing/stream-parts.js';
import { resolveModel } from './resolve-model.js';

const prompt: LanguageModelV4Prompt = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'text', text: 'What is in README.md?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me look.' },
      {
        type: 'tool-call',
        toolCallId: 'call_prev',
        toolName: 'Read',
        input: { file_path: 'README.md' },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_prev',
        toolName: 'Read',
        output: { type: 'text', value: '# warren' },
      },
    ],
  },
];

const readTool: LanguageModelV4FunctionTool = {
  type: 'function',
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: {
    type: 'object',
    properties: { file_path: { type: 'string' } },
    required: ['file_path'],
  },
};

const toolCallReply: MockReply = {
  text: 'Reading the index next.',
  toolCalls: [{ id: 'call_next', name: 'Read', input: { file_path: 'src/index.ts' } }],
  usage: { input: 100, output: 20, cacheRead: 30, cacheWrite: 10 },
};

const openAiMessages = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'What is in README.md?' },
  {
    role: 'assistant',
    content: 'Let me look.',
    tool_calls: [
      {
        id: 'call_prev',
        type: 'function',
        function: { name: 'Read', arguments: '{"file_path":"README.md"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_prev', content: '# warren' },
];

const openAiTools = [
  {
    type: 'function',
    function: { name: 'Read', description: 'Reads a file.', parameters: readTool.inputSchema },
  },
];

/** What both OpenAI-wire providers send for the conversation above. */
const openAiRequest = (model: string) => ({
  model,
  messages: openAiMessages,
  tools: openAiTools,
  stream: true,
  stream_options: { include_usage: true },
});

/** OpenAI has no cache writes: its prompt_tokens count them as ordinary input. */
const openAiUsage: Partial<LanguageModelV4Usage> = {
  inputTokens: { total: 140, noCache: 110, cacheRead: 30, cacheWrite: undefined },
  outputTokens: expect.objectContaining({ total: 20 }),
};

interface ProviderCase {
  spec: string;
  api: MockApi;
  env(server: MockLlmServer): Record<string, string>;
  baseUrl?(server: MockLlmServer): string;
  /** The request body, as the provider's API documents it. */
  expectedRequest: Record<string, unknown>;
  expectedUsage: Partial<LanguageModelV4Usage>;
  /** The status the provider's API uses for "overloaded, try later". */
  overloadedStatus: number;
}

const providerCases: ProviderCase[] = [
  {
    spec: 'openai-compatible:llama3.1:8b',
    api: 'openai-chat',
    env: () => ({}),
    baseUrl: (server) => `${server.url}/v1`,
    expectedRequest: openAiRequest('llama3.1:8b'),
    expectedUsage: openAiUsage,
    overloadedStatus: 503,
  },
  {
    spec: 'openai:gpt-4.1',
    api: 'openai-chat',
    env: (server) => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` }),
    expectedRequest: openAiRequest('gpt-4.1'),
    expectedUsage: openAiUsage,
    overloadedStatus: 503,
  },
  {
    spec: 'anthropic:claude-sonnet-4-5',
    api: 'anthropic-messages',
    env: (server) => ({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url }),
    expectedRequest: {
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is in README.md?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'call_prev', name: 'Read', input: { file_path: 'README.md' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_prev', content: '# warren' }],
        },
      ],
      tools: [{ name: 'Read', description: 'Reads a file.', input_schema: readTool.inputSchema }],
      stream: true,
    },
    expectedUsage: {
      inputTokens: { total: 140, noCache: 100, cacheRead: 30, cacheWrite: 10 },
      outputTokens: expect.objectContaining({ total: 20 }),
    },
    overloadedStatus: 529,
  },
];

describe.each(providerCases)('provider $spec', (providerCase) => {
  let server: MockLlmServer;
  let model: LanguageModelV4;

  beforeEach(async () => {
    server = await startMockLlmServer();
    model = await resolveModel(providerCase.spec, {
      env: providerCase.env(server),
      baseUrl: providerCase.baseUrl?.(server),
    });
  });
  afterEach(() => server.close());

  it('streams text deltas, a tool call with parsed input, usage and the finish reason', async () => {
    server.enqueue(toolCallReply);
    const { stream } = await model.doStream({ prompt, tools: [readTool] });
    const { parts, error } = await readStreamParts(stream);

    expect(error).toBeUndefined();
    expect(textOf(parts)).toBe('Reading the index next.');
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(1);
    const toolCalls = parts.filter((part) => part.type === 'tool-call');
    expect(toolCalls).toHaveLength(1);
    expect(toolCalls[0]).toMatchObject({ toolCallId: 'call_next', toolName: 'Read' });
    expect(JSON.parse(toolCalls[0]?.input ?? '')).toEqual({ file_path: 'src/index.ts' });
    const finish = parts.at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls' },
      usage: providerCase.expectedUsage,
    });
  });

  it('returns the same content, usage and finish reason without streaming', async () => {
    server.enqueue(toolCallReply);
    const result = await model.doGenerate({ prompt, tools: [readTool] });

    expect(result.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Reading the index next.' }),
      expect.objectContaining({
        type: 'tool-call',
        toolCallId: 'call_next',
        toolName: 'Read',
        input: '{"file_path":"src/index.ts"}',
      }),
    ]);
    expect(result.finishReason.unified).toBe('tool-calls');
    expect(result.usage).toMatchObject(providerCase.expectedUsage);
  });

  it('ends a text-only reply with finish reason stop', async () => {
    server.enqueue({ text: 'Done.' });
    const { parts } = await readStreamParts((await model.doStream({ prompt })).stream);

    expect(textOf(parts)).toBe('Done.');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it('reports a reply cut at the output token limit as finish reason length', async () => {
    server.enqueue({ text: 'It goes on and', truncated: true });
    const { parts } = await readStreamParts((await model.doStream({ prompt })).stream);

    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'length' } });
  });

  it('sends the tools and the conversation, tool call and result included, in its API format', async () => {
    server.enqueue({ text: 'ok' });
    await readStreamParts((await model.doStream({ prompt, tools: [readTool] })).stream);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.api).toBe(providerCase.api);
    expect(server.requests[0]?.body).toMatchObject(providerCase.expectedRequest);
  });

  it('throws a 429 as a retryable APICallError that carries retry-after', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '7' } });
    const error = await rejectionOf(model.doStream({ prompt }));

    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(429);
    expect(apiError.isRetryable).toBe(true);
    expect(apiError.responseHeaders?.['retry-after']).toBe('7');
  });

  it('throws an overloaded server as a retryable APICallError with its message', async () => {
    server.enqueue({
      status: providerCase.overloadedStatus,
      errorMessage: 'Overloaded, try again',
    });
    const error = await rejectionOf(model.doGenerate({ prompt }));

    expect(error).toMatchObject({
      statusCode: providerCase.overloadedStatus,
      isRetryable: true,
      message: 'Overloaded, try again',
    });
  });

  it('throws a 401 as an APICallError that is not retryable', async () => {
    server.enqueue({ status: 401 });
    const error = await rejectionOf(model.doStream({ prompt }));

    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
  });

  it('errors the stream, after the parts that arrived, when the connection drops mid-way', async () => {
    server.enqueue({ text: 'one two three four five six', cutAfterChunks: 4 });
    const { stream } = await model.doStream({ prompt });
    const { parts, error } = await readStreamParts(stream);

    expect(parts.some((part) => part.type === 'text-delta')).toBe(true);
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(APICallError.isInstance(error)).toBe(true);
    // The status is the 200 the response began with; only `isRetryable` says "try again".
    expect(error).toMatchObject({
      message: 'Failed to process successful response',
      statusCode: 200,
      isRetryable: true,
    });
  });

  it('throws from doStream or the stream when the connection drops before any event', async () => {
    server.enqueue({ text: 'never sent', cutAfterChunks: 0 });
    const outcome = await model.doStream({ prompt }).then(
      ({ stream }) => readStreamParts(stream),
      (thrown: unknown) => ({ parts: [], error: thrown }),
    );

    expect(outcome.parts.some((part) => part.type === 'finish')).toBe(false);
    expect(outcome.error).toMatchObject({ isRetryable: true });
  });

  it('throws a dropped connection from doGenerate as a retryable APICallError', async () => {
    server.enqueue({ text: 'never sent', cutAfterChunks: 0 });
    const error = await rejectionOf(model.doGenerate({ prompt }));

    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: true });
  });

  it('puts an in-stream error event in the stream as an error part', async () => {
    server.enqueue({ text: 'one two three four', errorEventAfterChunks: 4 });
    const { parts, error } = await readStreamParts((await model.doStream({ prompt })).stream);

    expect(error).toBeUndefined();
    expect(parts.some((part) => part.type === 'error')).toBe(true);
    const finish = parts.find((part) => part.type === 'finish');
    if (finish) expect(finish.finishReason.unified).toBe('error');
  });
});

describe('stream ended cleanly but early (no end marker)', () => {
  let server: MockLlmServer;
  afterEach(() => server.close());

  async function streamEndedAfter(spec: string, chunks: number) {
    server = await startMockLlmServer();
    const model = await resolveModel(spec, {
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${server.url}/v1`,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: server.url,
      },
      baseUrl: `${server.url}/v1`,
    });
    server.enqueue({ text: 'one two three four five', endAfterChunks: chunks });
    return readStreamParts((await model.doStream({ prompt })).stream);
  }

  it('openai-compatible: an error part, then finish reason error', async () => {
    const { parts, error } = await streamEndedAfter('openai-compatible:m', 3);
    expect(error).toBeUndefined();
    expect(parts.some((part) => part.type === 'error')).toBe(true);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error' } });
  });

  it('openai: no error part, finish reason interrupted', async () => {
    const { parts, error } = await streamEndedAfter('openai:gpt-4.1', 3);
    expect(error).toBeUndefined();
    expect(parts.some((part) => part.type === 'error')).toBe(false);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'interrupted' },
    });
  });

  it('anthropic after some text: finish reason interrupted', async () => {
    const { parts } = await streamEndedAfter('anthropic:claude-sonnet-4-5', 5);
    expect(textOf(parts)).not.toBe('');
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'interrupted' },
    });
  });

  it('anthropic before any text: the stream just ends, with neither error nor finish', async () => {
    const { parts, error } = await streamEndedAfter('anthropic:claude-sonnet-4-5', 3);
    expect(error).toBeUndefined();
    expect(parts.some((part) => part.type === 'error' || part.type === 'finish')).toBe(false);
  });
});

describe('anthropic prompt caching', () => {
  let server: MockLlmServer;
  let model: LanguageModelV4;
  const ephemeral = { anthropic: { cacheControl: { type: 'ephemeral' } } };

  beforeEach(async () => {
    server = await startMockLlmServer({ replies: [{ text: 'ok' }] });
    model = await resolveModel('anthropic:claude-sonnet-4-5', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url },
    });
  });
  afterEach(() => server.close());

  it('puts cache_control on the system block, a tool, and the last block of a message', async () => {
    const [system, user, assistant, tool] = prompt;
    const cachedPrompt = [
      { ...system, providerOptions: ephemeral },
      user,
      assistant,
      { ...tool, providerOptions: ephemeral },
    ] as LanguageModelV4Prompt;
    await model.doGenerate({
      prompt: cachedPrompt,
      tools: [{ ...readTool, providerOptions: ephemeral }],
    });

    const body = server.requests[0]?.body as {
      system: Array<Record<string, unknown>>;
      tools: Array<Record<string, unknown>>;
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    expect(body.system[0]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(body.tools[0]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(body.messages[2]?.content.at(-1)).toMatchObject({
      type: 'tool_result',
      cache_control: { type: 'ephemeral' },
    });
    expect(body.messages[0]?.content[0]).not.toHaveProperty('cache_control');
  });

  it('reports cache reads and writes in usage', async () => {
    server.enqueue({ text: 'ok', usage: { input: 5, output: 2, cacheRead: 900, cacheWrite: 0 } });
    await model.doGenerate({ prompt });
    const result = await model.doGenerate({ prompt });

    expect(result.usage.inputTokens).toEqual({
      total: 905,
      noCache: 5,
      cacheRead: 900,
      cacheWrite: 0,
    });
  });
});

function textOf(parts: LanguageModelV4StreamPart[]): string {
  return parts.map((part) => (part.type === 'text-delta' ? part.delta : '')).join('');
}
