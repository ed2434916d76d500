// Dollar cost of usage for models whose list price we know; null for the rest, never a guess.
// The prices are data (prices.json, with its source and date); a user's file can add to them.
import type { PriceTableRef } from '../core/inherited-options.js';
import type { Usage } from '../core/usage.js';
import builtinPrices from './prices.json' with { type: 'json' };

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Prices by `provider:model` prefix; the longest matching prefix wins. (Its shape is declared in
 * core, where the loop's inherited options name it.)
 */
export type PriceTable = PriceTableRef;

/** The prices warren ships with (`src/model/prices.json`). */
export const BUILTIN_PRICES: PriceTable = builtinPrices;

/** `provider:modelId` as warren names models; the AI SDK's provider ids carry a suffix. */
export function modelName(model: { provider: string; modelId: string }): string {
  return `${model.provider.split('.')[0]}:${model.modelId}`;
}

/**
 * Longest matching prefix, so dated ids (`claude-sonnet-4-20250514`) find their family; a table
 * without a match asks its base.
 */
export function priceOf(name: string, table: PriceTable = BUILTIN_PRICES): ModelPrice | undefined {
  // Every agent asks, a thousand children for one name: the shipped table's answers are kept
  // (nothing changes that table; a user's own may be changed between runs, so it is read again).
  if (table !== BUILTIN_PRICES) return longestPrefix(name, table);
  if (builtinFound.has(name)) return builtinFound.get(name);
  const price = longestPrefix(name, table);
  if (builtinFound.size < 1000) builtinFound.set(name, price);
  return price;
}

const builtinFound = new Map<string, ModelPrice | undefined>();

function longestPrefix(name: string, table: PriceTable): ModelPrice | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(table.models)) {
    if (name.startsWith(prefix) && (best === undefined || prefix.length > best.length)) {
      best = prefix;
    }
  }
  if (best !== undefined) return table.models[best];
  return table.base ? priceOf(name, table.base) : undefined;
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
