// Reads a definition's `model` as warren understands it: `inherit`, a Claude alias the model
// layer resolves for the session's provider, or `provider:model`. Unknown values pass through.

/** Aliases kept as written; the model layer picks the concrete model when the agent starts. */
const MODEL_ALIASES = ['sonnet', 'opus', 'haiku'] as const;
export type ModelAlias = (typeof MODEL_ALIASES)[number];

/** The providers `--model provider:model` accepts. */
const MODEL_PROVIDERS = ['anthropic', 'openai', 'openai-compatible', 'scripted'] as const;

export interface NormalizedModel {
  model: string;
  /** How the value was read, when it was rewritten. */
  note?: string;
  /** Why the value may not work, when warren does not know it. */
  warning?: string;
}

/** The Claude model each alias means when the session runs on Anthropic. */
export const ALIAS_MODELS: Record<ModelAlias, string> = {
  sonnet: 'anthropic:claude-sonnet-4-5',
  opus: 'anthropic:claude-opus-4-5',
  haiku: 'anthropic:claude-haiku-4-5',
};

/** The provider a `provider:model` spec names; undefined for none. */
export function providerOf(spec: string | undefined): string | undefined {
  const colon = spec?.indexOf(':') ?? -1;
  return colon > 0 ? spec!.slice(0, colon) : undefined;
}

/**
 * The spec an alias means for a child whose parent runs on `parentProvider` (a spec's provider
 * or an AI SDK model's `provider`, such as `anthropic.messages`): a Claude model on Anthropic;
 * elsewhere undefined, and the child keeps its parent's model.
 */
export function aliasSpec(
  alias: ModelAlias,
  parentProvider: string | undefined,
): string | undefined {
  return parentProvider?.startsWith('anthropic') ? ALIAS_MODELS[alias] : undefined;
}

export function isModelAlias(model: string): model is ModelAlias {
  return (MODEL_ALIASES as readonly string[]).includes(model);
}

export function normalizeModel(value: string): NormalizedModel {
  const model = value.trim();
  const lower = model.toLowerCase();
  if (lower === 'inherit' || isModelAlias(lower)) return { model: lower };

  const providerSplit = /^([\w-]+)([:/])(.+)$/.exec(model);
  if (providerSplit) {
    const provider = providerSplit[1]!;
    if (isKnownProvider(provider)) {
      // opencode writes `provider/model`.
      const normalized = `${provider}:${providerSplit[3]!}`;
      if (providerSplit[2] === ':') return { model };
      return { model: normalized, note: `read \`${model}\` as \`${normalized}\`` };
    }
    return {
      model,
      warning: `the model \`${model}\` names the provider \`${provider}\`, which warren does not have (it has ${MODEL_PROVIDERS.join(', ')}); kept as written, but it will likely not resolve. Use inherit, ${MODEL_ALIASES.join(', ')} or provider:model`,
    };
  }

  // Bare ids whose family gives away the provider (`claude-sonnet-4-20250514` is common).
  const provider = lower.startsWith('claude-')
    ? 'anthropic'
    : /^(gpt-|o\d)/.test(lower)
      ? 'openai'
      : undefined;
  if (provider) {
    return { model: `${provider}:${model}`, note: `read \`${model}\` as \`${provider}:${model}\`` };
  }
  return {
    model,
    warning: `warren does not know the model \`${model}\`; kept as written, but it will likely not resolve. Use inherit, ${MODEL_ALIASES.join(', ')} or provider:model`,
  };
}

function isKnownProvider(provider: string): boolean {
  return (MODEL_PROVIDERS as readonly string[]).includes(provider);
}
