// Short numbers for narrow rows: durations, token counts and costs as the UI writes them.

/** `12 ms`, `3.2s`, `42s`, `1m 05s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.floor(seconds)}s`;
  const whole = Math.floor(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${pad2(whole % 60)}s`;
  return `${Math.floor(whole / 3600)}h ${pad2(Math.floor(whole / 60) % 60)}m`;
}

/** `950`, `1.2k`, `34k`, `1.5M`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 10_000) return `${(tokens / 1000).toFixed(1)}k`;
  if (tokens < 1_000_000) return `${Math.round(tokens / 1000)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** `$0.0123`; a dash when some model's price is unknown, since a partial sum would mislead. */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return 'unpriced';
  return costUsd < 1 ? `$${costUsd.toFixed(4)}` : `$${costUsd.toFixed(2)}`;
}

/** `1 tool`, `3 tools`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
