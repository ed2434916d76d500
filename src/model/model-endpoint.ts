// Where a provider's requests go and which variables hold its key: the flag or variable that
// set the address, checked as an http(s) URL without credentials (those are never echoed back).
import { ConfigError } from '../core/config-error.js';

export const PROVIDERS = ['anthropic', 'openai', 'openai-compatible', 'scripted'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export type HttpProvider = Exclude<ProviderName, 'scripted'>;

/** API key variables, in order of preference. */
export const KEY_VARIABLES: Record<HttpProvider, readonly string[]> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
  'openai-compatible': ['OPENAI_COMPATIBLE_API_KEY', 'WARREN_API_KEY'],
};

const ENDPOINT_VARIABLES: Record<HttpProvider, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
  'openai-compatible': 'WARREN_BASE_URL',
};

const DEFAULT_ENDPOINTS: Record<HttpProvider, string | undefined> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': undefined,
};

export const ENDPOINT_EXAMPLES: Record<HttpProvider, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': 'http://localhost:11434/v1 for Ollama',
};

export interface Endpoint {
  /** The setting it came from: `--base-url`, `WARREN_BASE_URL`, `ANTHROPIC_BASE_URL`. */
  where: string;
  url: string | undefined;
  /** True when nothing was set and the provider's public API is used. */
  isDefault: boolean;
}

/**
 * Where a provider's requests go. `--base-url` serves openai-compatible only: a sub-agent on
 * `anthropic:` must not follow the main agent to a local server.
 * @throws ConfigError for an address that is not an http(s) URL, or that holds a user or password.
 */
export function endpointOf(
  provider: HttpProvider,
  options: { baseUrl?: string },
  env: Record<string, string | undefined>,
): Endpoint {
  const flag = provider === 'openai-compatible' ? options.baseUrl?.trim() : undefined;
  const variable = ENDPOINT_VARIABLES[provider];
  const [where, value] = flag ? ['--base-url', flag] : [variable, env[variable]?.trim()];
  if (!value) return { where, url: DEFAULT_ENDPOINTS[provider], isDefault: true };

  const url = parseUrl(value);
  if (url?.username || url?.password) {
    // fetch refuses such URLs, and the message would carry the password into logs.
    throw new ConfigError(
      `${where} ${withoutCredentials(value)}`,
      'holds a user name or password, which warren does not send',
      `give the address alone, and the key in ${keyVariablesOf(provider)}`,
    );
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new ConfigError(
      `${where} ${withoutCredentials(value)}`,
      'is not an http(s) URL',
      `give the server's address, e.g. ${ENDPOINT_EXAMPLES[provider]}`,
    );
  }
  return { where, url: value, isDefault: false };
}

/** The endpoint each model `resolveModel` made talks to, so its errors can name it. */
const modelEndpoints = new WeakMap<object, Endpoint>();

export function rememberEndpoint<Model extends object>(model: Model, endpoint: Endpoint): Model {
  modelEndpoints.set(model, endpoint);
  return model;
}

/** Where a model made by `resolveModel` sends its requests; undefined for any other model. */
export function endpointOfModel(model: object): Endpoint | undefined {
  return modelEndpoints.get(model);
}

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

export function firstSet(
  env: Record<string, string | undefined>,
  variables: readonly string[],
): { variable: string; value: string } | undefined {
  for (const variable of variables) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

/** Text with anything shaped like the `user:password@` of a URL replaced, for messages. */
function withoutCredentials(text: string): string {
  return text.replace(/[^\s/?#@]+@/g, '<credentials>@');
}

function keyVariablesOf(provider: HttpProvider): string {
  return KEY_VARIABLES[provider].join(' or ');
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
