// Dollar cost of usage for models whose list price we know; null for the rest, never a guess.
import type { Usage } from '../core/usage.js';

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: input * 0.1,
  cacheWrite: input * 1.25,
});
const openai = (input: number, output: number, cacheRead = input / 2): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input,
});

/** Longest matching prefix wins, so dated ids (`claude-sonnet-4-20250514`) find their family. */
const PRICES: Array<[prefix: string, price: ModelPrice]> = (
  [
    ['anthropic:claude-opus-4-5', anthropic(5, 25)],
    ['anthropic:claude-opus-4', anthropic(15, 75)],
    ['anthropic:claude-3-opus', anthropic(15, 75)],
    ['anthropic:claude-sonnet-4', anthropic(3, 15)],
    ['anthropic:claude-3-7-sonnet', anthropic(3, 15)],
    ['anthropic:claude-3-5-sonnet', anthropic(3, 15)],
    ['anthropic:claude-haiku-4', anthropic(1, 5)],
    ['anthropic:claude-3-5-haiku', anthropic(0.8, 4)],
    ['openai:gpt-5-mini', openai(0.25, 2, 0.025)],
    ['openai:gpt-5-nano', openai(0.05, 0.4, 0.005)],
    ['openai:gpt-5', openai(1.25, 10, 0.125)],
    ['openai:gpt-4.1-mini', openai(0.4, 1.6, 0.1)],
    ['openai:gpt-4.1-nano', openai(0.1, 0.4, 0.025)],
    ['openai:gpt-4.1', openai(2, 8, 0.5)],
    ['openai:gpt-4o-mini', openai(0.15, 0.6)],
    ['openai:gpt-4o', openai(2.5, 10)],
    ['openai:o4-mini', openai(1.1, 4.4, 0.275)],
    ['openai:o3-mini', openai(1.1, 4.4, 0.55)],
    ['openai:o3-pro', openai(20, 80, 20)],
    ['openai:o3', openai(2, 8, 0.5)],
    ['openai:o1-mini', openai(1.1, 4.4, 0.55)],
    ['openai:o1', openai(15, 60, 7.5)],
  ] satisfies Array<[string, ModelPrice]>
).sort((a, b) => b[0].length - a[0].length);

/** `provider:modelId` as warren names models; the AI SDK's provider ids carry a suffix. */
export function modelName(model: { provider: string; modelId: string }): string {
  return `${model.provider.split('.')[0]}:${model.modelId}`;
}

export function priceOf(name: string): ModelPrice | undefined {
  return PRICES.find(([prefix]) => name.startsWith(prefix))?.[1];
}

export function costOf(usage: Usage, price: ModelPrice | undefined): number | null {
  if (!price) return null;
  const dollars =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    usage.cacheReadInputTokens * price.cacheRead +
    usage.cacheCreationInputTokens * price.cacheWrite;
  return dollars / 1_000_000;
}
