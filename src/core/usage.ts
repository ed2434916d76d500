// Token usage: one shape for a model call, a turn, an agent and a whole run.

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
}

/** Adds `more` into `total` in place and returns it. */
export function addUsage(total: Usage, more: Usage): Usage {
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
  total.cacheReadInputTokens += more.cacheReadInputTokens;
  total.cacheCreationInputTokens += more.cacheCreationInputTokens;
  return total;
}

/** Tokens that count against a token budget: what the model read plus what it wrote. */
export function budgetTokens(usage: Usage): number {
  return (
    usage.inputTokens +
    usage.cacheReadInputTokens +
    usage.cacheCreationInputTokens +
    usage.outputTokens
  );
}

/**
 * The share of input tokens read from the prompt cache: cache reads over all input (uncached,
 * cache reads, cache writes). Null when there was no input at all.
 */
export function cacheHitRatio(usage: Usage): number | null {
  const input = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
  return input === 0 ? null : usage.cacheReadInputTokens / input;
}
