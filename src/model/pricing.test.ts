import { describe, expect, it } from 'vitest';
import { costOf, modelName, priceOf } from './pricing.js';

describe('pricing', () => {
  it('prices a dated model id by its family', () => {
    const price = priceOf('anthropic:claude-sonnet-4-20250514');
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadInputTokens: 1_000_000,
      cacheCreationInputTokens: 0,
    };
    expect(costOf(usage, price)).toBeCloseTo(3 + 1.5 + 0.3);
  });

  it('knows no price for local or unknown models', () => {
    expect(priceOf('openai-compatible:llama3.1')).toBeUndefined();
    expect(
      costOf(
        { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
        undefined,
      ),
    ).toBeNull();
  });

  it('names a model as provider:id without the AI SDK suffix', () => {
    expect(modelName({ provider: 'anthropic.messages', modelId: 'claude-opus-4-1' })).toBe(
      'anthropic:claude-opus-4-1',
    );
  });
});
