// How one agent asks its model to work, beyond the prompt: how hard to reason, how random to be,
// and how long Anthropic keeps its prompt cache. Set per agent (a definition, an Agent call), not
// inherited: a child's settings are its own.

/** The AI SDK's portable reasoning levels; each provider maps them to its own knob. */
export const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

/** Anthropic's cache lifetimes: 5 minutes (its default) or an hour (dearer to write). */
export const CACHE_TTLS = ['5m', '1h'] as const;
export type CacheTtl = (typeof CACHE_TTLS)[number];

export interface ModelSettings {
  /**
   * Reasoning effort: sent as the AI SDK's `reasoning` call option (Anthropic: thinking and its
   * effort; OpenAI: `reasoningEffort`; OpenAI-compatible: `reasoning_effort`).
   */
  effort?: Effort;
  /** Sampling temperature, for the providers and models that take one. */
  temperature?: number;
  /** Lifetime of the prompt-cache entries this agent's requests write (Anthropic only). */
  cacheTtl?: CacheTtl;
}
