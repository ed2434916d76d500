// Token counts across ACP's `usage` of a prompt response (an unstable part of the protocol that
// Claude Code's and Codex's adapters and warren send): warren's usage as it, and it read back
// from an agent, checked (an agent's answer is hostile: only whole, non-negative numbers count).
import type { Usage } from '../core/usage.js';

/** ACP's shape: input excludes the cached tokens, as Anthropic counts them. */
export interface AcpUsage {
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
  cachedReadTokens: number;
  cachedWriteTokens: number;
}

export function acpUsage(usage: Usage): AcpUsage {
  return {
    totalTokens:
      usage.inputTokens +
      usage.outputTokens +
      usage.cacheReadInputTokens +
      usage.cacheCreationInputTokens,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedReadTokens: usage.cacheReadInputTokens,
    cachedWriteTokens: usage.cacheCreationInputTokens,
  };
}

/** The usage a prompt response reports, or undefined when it reports none (or nonsense). */
export function usageOfResponse(response: unknown): Usage | undefined {
  const usage = (response as { usage?: unknown } | null)?.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const field = (name: string, required: boolean): number | undefined => {
    const value = (usage as Record<string, unknown>)[name];
    if (value === undefined || value === null) return required ? undefined : 0;
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? value
      : undefined;
  };
  const input = field('inputTokens', true);
  const output = field('outputTokens', true);
  const cacheRead = field('cachedReadTokens', false);
  const cacheWrite = field('cachedWriteTokens', false);
  if (input === undefined || output === undefined) return undefined;
  if (cacheRead === undefined || cacheWrite === undefined) return undefined;
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
}
