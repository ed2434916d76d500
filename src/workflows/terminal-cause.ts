// Which item failures trip the circuit breaker: errors that every following launch would meet
// too (quota or usage limit, authentication, a model the provider refuses, the budget spent).
// They pause the run instead of failing item after item.

export type TerminalCause = 'quota' | 'authentication' | 'model_refused' | 'budget';

const PATTERNS: readonly [TerminalCause, RegExp][] = [
  [
    'quota',
    /\b(insufficient_quota|quota|usage limit|rate_limit_exceeded.*(?:day|month)|credit balance|billing|402)\b/i,
  ],
  [
    'authentication',
    /\b(401|403|authentication|unauthori[sz]ed|invalid (?:x-)?api[ _-]?key|permission_error|forbidden)\b/i,
  ],
  [
    'model_refused',
    /\b(model_not_found|model .{0,80}(?:not found|does not exist|not available|not supported)|unknown model|404 .{0,40}model)\b/i,
  ],
];

/**
 * The terminal cause in a failed item's error text, if any. The text is what the provider said
 * through the model layer; a transient failure (overloaded, a 5xx, a cut stream) is not one.
 */
export function terminalCause(error: string): TerminalCause | undefined {
  for (const [cause, pattern] of PATTERNS) if (pattern.test(error)) return cause;
  return undefined;
}

export function describeCause(cause: TerminalCause, detail: string): string {
  const what: Record<TerminalCause, string> = {
    quota: 'the provider refused for quota or usage limit',
    authentication: 'the provider refused the credentials',
    model_refused: 'the provider refused the model',
    budget: "the workflow's budget is spent",
  };
  return `${what[cause]}: ${detail.replace(/\s+/g, ' ').slice(0, 300)}`;
}
