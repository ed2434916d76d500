// A model request that stops answering ends in bounded time, even when the model object
// ignores its abort signal: the watchdog races the call and cancels the stream it waits on.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  LanguageModelV4,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { textOf } from '../core/messages.js';
import { rejectionOf } from '../testing/caught-errors.js';
import { modelTurn } from './model-turn.js';
import { RequestTimeoutError } from './request-timeout.js';
import { resolveModel } from './resolve-model.js';
import { DEFAULT_RETRY } from './retry-policy.js';

/** A model deaf to aborts: its call never settles, or its stream never sends another part. */
function deafModel(hangs: 'call' | 'stream'): LanguageModelV4 {
  const never = new Promise<never>(() => {});
  return {
    specificationVersion: 'v4',
    provider: 'deaf',
    modelId: 'deaf',
    supportedUrls: {},
    doGenerate: () => never,
    doStream: async (): Promise<LanguageModelV4StreamResult> => {
      if (hangs === 'call') return never;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
        },
      });
      return { stream };
    },
  };
}

/** The model's one turn, run to its end with no retry. */
async function drain(model: LanguageModelV4, requestTimeoutMs = 100) {
  return modelTurn(
    {
      model,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      toolChoice: 'auto',
      stream: true,
      signal: new AbortController().signal,
      retry: { ...DEFAULT_RETRY, maxRetries: 0 },
      requestTimeoutMs,
    },
    () => {},
  );
}

describe('the request timeout', () => {
  it.each([
    ['call', 'response', 'no answer in 0.1 s'],
    ['stream', 'stream', 'the reply stopped: nothing more came for 0.1 s'],
  ] as const)(
    'ends a %s that never answers and ignores its abort signal',
    async (hangs, stage, message) => {
      const started = Date.now();
      const error = await rejectionOf(drain(deafModel(hangs)));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(RequestTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ stage, timeoutMs: 100, message });
    },
  );

  it('counts SSE keep-alive comments, empty deltas and a late usage chunk as life', async () => {
    const chunk = (delta: object, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
    const keepAlives = async (write: (text: string) => void) => {
      for (let i = 0; i < 8; i++) {
        await sleep(60);
        write(': keep-alive\n\n');
      }
    };
    const server = createServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const write = (text: string) => res.write(text);
      write(chunk({ role: 'assistant', content: '' }));
      await keepAlives(write);
      for (let i = 0; i < 8; i++) {
        await sleep(60);
        write(chunk({ content: '' }));
      }
      write(chunk({ content: 'still here' }));
      write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      );
      await keepAlives(write);
      write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const model = await resolveModel('openai-compatible:m', {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        env: {},
      });
      // Each silence between stream parts is some 500 ms; between bytes, 60 ms.
      const turn = await drain(model, 250);
      expect(textOf(turn.message)).toBe('still here');
      expect(turn.usage).toMatchObject({ inputTokens: 11, outputTokens: 3 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
