import { fileURLToPath } from 'node:url';
import {
  APICallError,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config-error.js';
import { readStreamParts } from '../testing/stream-parts.js';
import { loadScriptedModel, ScriptedModel, scriptedModel } from './scripted-model.js';

function call(
  prompt: string,
  extra: { system?: string; toolResult?: string; tools?: string[]; signal?: AbortSignal } = {},
): LanguageModelV4CallOptions {
  const messages: LanguageModelV4Prompt = [];
  if (extra.system) messages.push({ role: 'system', content: extra.system });
  messages.push({ role: 'user', content: [{ type: 'text', text: prompt }] });
  if (extra.toolResult !== undefined) {
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'Read', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't1',
            toolName: 'Read',
            output: { type: 'text', value: extra.toolResult },
          },
        ],
      },
    );
  }
  return {
    prompt: messages,
    tools: (extra.tools ?? []).map((name) => ({ type: 'function', name, inputSchema: {} })),
    abortSignal: extra.signal,
  };
}

async function readAll(
  stream: ReadableStream<LanguageModelV4StreamPart>,
): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function textOfCall(model: ScriptedModel, options: LanguageModelV4CallOptions) {
  const { stream } = await model.doStream(options);
  const parts = await readAll(stream);
  return parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');
}

describe('ScriptedModel', () => {
  it('streams text in several deltas that join back into the scripted text', async () => {
    const model = scriptedModel([{ text: 'The build is green on every platform.' }]);

    const { stream } = await model.doStream(call('status?'));
    const parts = await readAll(stream);

    expect(parts.map((part) => part.type)).toEqual([
      'stream-start',
      'response-metadata',
      'text-start',
      ...Array(7).fill('text-delta'),
      'text-end',
      'finish',
    ]);
    const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
    expect(deltas.join('')).toBe('The build is green on every platform.');
    expect(parts.at(-1)).toMatchObject({ finishReason: { unified: 'stop' } });
  });

  it('streams each tool call as input parts and then a tool-call with JSON input', async () => {
    const model = scriptedModel([
      {
        text: 'Reading both.',
        toolCalls: [
          { name: 'Read', input: { file_path: 'src/a-rather-long-file-name.ts' } },
          { name: 'Grep', input: { pattern: 'TODO' }, id: 'mine' },
          { name: 'Glob', input: { pattern: '**/*.md' } },
        ],
      },
    ]);

    const { stream } = await model.doStream(call('look'));
    const parts = await readAll(stream);

    const calls = parts.filter((part) => part.type === 'tool-call');
    expect(calls).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_1',
        toolName: 'Read',
        input: '{"file_path":"src/a-rather-long-file-name.ts"}',
      },
      { type: 'tool-call', toolCallId: 'mine', toolName: 'Grep', input: '{"pattern":"TODO"}' },
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'Glob', input: '{"pattern":"**/*.md"}' },
    ]);
    const readInput = parts.filter(
      (part) => part.type === 'tool-input-delta' && part.id === 'call_1',
    );
    expect(readInput.length).toBeGreaterThan(1);
    expect(
      readInput.map((part) => (part.type === 'tool-input-delta' ? part.delta : '')).join(''),
    ).toBe('{"file_path":"src/a-rather-long-file-name.ts"}');
    const readParts = parts.filter((part) => 'id' in part && part.id === 'call_1');
    expect(readParts.at(0)).toEqual({ type: 'tool-input-start', id: 'call_1', toolName: 'Read' });
    expect(readParts.at(-1)).toEqual({ type: 'tool-input-end', id: 'call_1' });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
  });

  it('answers doGenerate with the same content, not streamed', async () => {
    const model = scriptedModel([
      { text: 'Let me look.', toolCalls: [{ name: 'Glob', input: { pattern: '*.ts' } }] },
    ]);

    const result = await model.doGenerate(call('find the sources'));

    expect(result.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'Glob', input: '{"pattern":"*.ts"}' },
    ]);
    expect(result.finishReason.unified).toBe('tool-calls');
  });

  it('reports scripted usage, and estimates usage from the text when the script gives none', async () => {
    const model = scriptedModel([
      { text: 'counted', usage: { input: 100, output: 20, cacheRead: 30, cacheWrite: 5 } },
      { text: 'estimated' },
    ]);

    const counted = await model.doGenerate(call('hi'));
    const estimated = await model.doGenerate(call('x'.repeat(400)));

    expect(counted.usage).toEqual({
      inputTokens: { total: 135, noCache: 100, cacheRead: 30, cacheWrite: 5 },
      outputTokens: { total: 20, text: 20, reasoning: 0 },
    });
    expect(estimated.usage.inputTokens).toEqual({
      total: 100,
      noCache: 100,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(estimated.usage.outputTokens.total).toBeGreaterThan(0);
  });

  it('picks the turn whose match fits, whatever order the calls come in', async () => {
    const model = scriptedModel([
      { match: { prompt: 'review' }, text: 'reviewer, first turn' },
      { match: { prompt: 'review', lastToolResult: '/^export/' }, text: 'reviewer, after Read' },
      { match: { system: 'You test', tools: ['Bash'] }, text: 'tester' },
      { match: { tools: ['/^mcp__/'] }, text: 'mcp user' },
    ]);

    const reviewer = async () => [
      await textOfCall(model, call('please review')),
      await textOfCall(model, call('please review', { toolResult: 'export * from "./a.js";' })),
    ];

    const answers = await Promise.all([
      textOfCall(model, call('use the server', { tools: ['mcp__fs__read'] })),
      textOfCall(model, call('run tests', { system: 'You test code.', tools: ['Bash', 'Read'] })),
      reviewer(),
    ]);

    expect(answers).toEqual([
      'mcp user',
      'tester',
      ['reviewer, first turn', 'reviewer, after Read'],
    ]);
    expect(model.remaining).toEqual([]);
    expect(() => model.assertComplete()).not.toThrow();
  });

  it('tests a /regex/ match the same way on every call, even with the g flag', async () => {
    const model = scriptedModel([
      { match: { prompt: '/^fix/gi', tools: ['Bash'] }, text: 'fixing with Bash' },
      { match: { prompt: '/^fix/gi' }, text: 'fixing without Bash' },
    ]);

    expect(await textOfCall(model, call('Fix the bug'))).toBe('fixing without Bash');
    expect(await textOfCall(model, call('Fix the bug', { tools: ['Bash'] }))).toBe(
      'fixing with Bash',
    );
  });

  it("matches match.agent against the calling agent's path (the x-warren-agent-path header)", async () => {
    const model = scriptedModel([
      { match: { agent: '/^main$/' }, text: 'for main' },
      { match: { agent: '/explore$/' }, text: 'for the explorer' },
    ]);
    const asAgent = (path: string) => ({
      ...call('hi'),
      headers: { 'x-warren-agent-path': path },
    });
    const child = await model.doGenerate(asAgent('main/Agent#1/explore'));
    const main = await model.doGenerate(asAgent('main'));
    expect(child.content).toEqual([{ type: 'text', text: 'for the explorer' }]);
    expect(main.content).toEqual([{ type: 'text', text: 'for main' }]);
  });

  it('takes a tool name in match.tools as the whole name', async () => {
    const model = scriptedModel([{ match: { tools: ['Read'] }, text: 'reader' }]);

    await expect(model.doGenerate(call('go', { tools: ['ReadMany'] }))).rejects.toThrow(
      /no unused turn fits/,
    );
  });

  it('names the request and the unused turns when no turn fits', async () => {
    const model = scriptedModel([
      { text: 'first' },
      { match: { prompt: '/^deploy/' }, text: 'deploying' },
    ]);
    await model.doGenerate(call('anything'));

    const failure = model.doStream(
      call('Summarise the changes in src/', {
        system: 'You are the explore agent.\nBe brief.',
        tools: ['Read'],
      }),
    );

    await expect(failure).rejects.toThrow(
      'ScriptedModel: no unused turn fits this call (1 of 2 turns unused)\n' +
        '  system: "You are the explore agent. Be brief."\n' +
        '  last user message: "Summarise the changes in src/"\n' +
        '  last tool result: none\n' +
        '  tools offered: Read\n' +
        '  agent: unknown\n' +
        'unused turns:\n' +
        '  turns[1] matching {"prompt":"/^deploy/"}: text "deploying"',
    );
    expect(model.calls).toHaveLength(2);
  });

  it('fails a 429 turn the way a provider does, and answers the next call from the next turn', async () => {
    const model = scriptedModel([
      { error: { status: 429, retryAfter: 3 } },
      { error: { status: 400, message: 'prompt is too long' } },
      { text: 'recovered' },
    ]);

    const rateLimited = await model.doStream(call('hi')).catch((error: unknown) => error);
    const badRequest = await model.doGenerate(call('hi')).catch((error: unknown) => error);

    expect(APICallError.isInstance(rateLimited)).toBe(true);
    expect(rateLimited).toMatchObject({
      statusCode: 429,
      isRetryable: true,
      responseHeaders: { 'retry-after': '3' },
      message: '429 Too Many Requests',
    });
    expect(badRequest).toMatchObject({
      statusCode: 400,
      isRetryable: false,
      message: 'prompt is too long',
    });
    expect(await textOfCall(model, call('hi'))).toBe('recovered');
  });

  it('cuts the stream after the scripted number of text deltas', async () => {
    const model = scriptedModel([
      { text: 'one two three four five', error: { cutAfterDeltas: 2 } },
    ]);

    const { stream } = await model.doStream(call('count'));
    const { parts, error } = await readStreamParts(stream);

    const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
    expect(deltas).toEqual(['one ', 'two ']);
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(error).toMatchObject({
      message: 'stream cut after 2 text deltas',
      isRetryable: true,
    });
  });

  it('ends a delayed stream with an AbortError when the call is aborted', async () => {
    const model = scriptedModel([{ text: 'too late', delayMs: 60_000 }]);
    const controller = new AbortController();

    const { stream } = await model.doStream(call('wait', { signal: controller.signal }));
    const reading = readStreamParts(stream);
    controller.abort();

    const { parts, error } = await reading;
    expect(parts).toEqual([]);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('rejects a delayed doGenerate with an AbortError when the call is aborted', async () => {
    const model = scriptedModel([{ text: 'too late', delayMs: 60_000 }]);
    const controller = new AbortController();

    const pending = model.doGenerate(call('wait', { signal: controller.signal }));
    controller.abort();

    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('lets delayed calls overlap, each finishing with its own turn', async () => {
    const model = scriptedModel([
      { match: { prompt: 'slow' }, text: 'slow done', delayMs: 40 },
      { match: { prompt: 'fast' }, text: 'fast done' },
    ]);
    const finished: string[] = [];

    await Promise.all(
      ['slow', 'fast'].map(async (prompt) => finished.push(await textOfCall(model, call(prompt)))),
    );

    expect(finished).toEqual(['fast done', 'slow done']);
  });

  it('records every call and names the turns never used', async () => {
    const model = scriptedModel([
      { text: 'used' },
      { toolCalls: [{ name: 'Bash', input: { command: 'ls' } }] },
    ]);

    const options = call('one');
    await model.doGenerate(options);

    expect(model.calls).toEqual([options]);
    expect(model.remaining).toEqual([{ toolCalls: [{ name: 'Bash', input: { command: 'ls' } }] }]);
    expect(() => model.assertComplete()).toThrow(
      'ScriptedModel: 1 of 2 turns were never used:\n  turns[1]: tool calls Bash',
    );
  });

  it('refuses a turn with neither text, tool calls nor error', () => {
    const build = () => new ScriptedModel({ turns: [{ text: 'ok' }, { delayMs: 5 }] });

    expect(build).toThrow(ConfigError);
    expect(build).toThrow('ScriptedModel turns[1]: a turn needs text, toolCalls or error');
  });

  it('loads a script file as a model named by the file', async () => {
    const path = fileURLToPath(new URL('./fixtures/script-parallel.yaml', import.meta.url));

    const model = await loadScriptedModel(path);

    expect(model.modelId).toBe('script-parallel');
    expect(model.provider).toBe('scripted');
    expect(model.remaining).toHaveLength(3);
  });

  it('takes the model id from the script when it names one', async () => {
    const path = fileURLToPath(new URL('./fixtures/script-retry.json', import.meta.url));

    const model = await loadScriptedModel(path);

    expect(model.modelId).toBe('retry-demo');
    await expect(model.doGenerate(call('hi'))).rejects.toMatchObject({ statusCode: 429 });
    expect((await model.doGenerate(call('hi'))).content).toEqual([
      { type: 'text', text: 'Recovered after the rate limit.' },
    ]);
  });
});
