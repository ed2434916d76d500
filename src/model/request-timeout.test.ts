// A model request that stops answering ends in bounded time, even when the model object
// ignores its abort signal: the watchdog races the call and cancels the stream it waits on.
import type {
  LanguageModelV4,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../testing/caught-errors.js';
import { modelTurn } from './model-turn.js';
import { RequestTimeoutError } from './request-timeout.js';
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

async function drain(model: LanguageModelV4) {
  const turns = modelTurn({
    model,
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    toolChoice: 'auto',
    stream: true,
    signal: new AbortController().signal,
    retry: { ...DEFAULT_RETRY, maxRetries: 0 },
    requestTimeoutMs: 100,
  });
  for (let step = await turns.next(); !step.done; step = await turns.next());
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
});
