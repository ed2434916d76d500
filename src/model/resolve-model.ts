// Turns a `provider:model` spec into a LanguageModelV4, loading only the provider package it
// needs, and turns setup failures (unreachable server, refused key, unknown model) into one line
// that names the flag or variable to fix.
import { APICallError, type LanguageModelV4 } from '@ai-sdk/provider';
import { ConfigError } from '../core/config-error.js';

export const PROVIDERS = ['anthropic', 'openai', 'openai-compatible', 'scripted'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
type HttpProvider = Exclude<ProviderName, 'scripted'>;

export interface ResolveModelOptions {
  /** The `--base-url` flag: where openai-compatible requests go (else WARREN_BASE_URL). */
  baseUrl?: string;
  /** Where keys and endpoints are read from; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** Handed to the provider, for tests and instrumentation. */
  fetch?: typeof fetch;
  /** Where the spec came from, for error messages: `--model` (default), `agents/x.md: model`. */
  source?: string;
}

/** API key variables, in order of preference. */
const KEY_VARIABLES: Record<HttpProvider, readonly string[]> = {
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

const ENDPOINT_EXAMPLES: Record<HttpProvider, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  'openai-compatible': 'http://localhost:11434/v1 for Ollama',
};

interface ParsedSpec {
  provider: ProviderName;
  modelId: string;
  /** The spec as a person wrote it, with where it came from: `--model openai:gpt-4.1`. */
  where: string;
}

export async function resolveModel(
  spec: string,
  options: ResolveModelOptions = {},
): Promise<LanguageModelV4> {
  const { provider, modelId, where } = parseSpec(spec, options.source);
  if (provider === 'scripted') {
    const { loadScriptedModel } = await import('./scripted-model.js');
    return loadScriptedModel(modelId);
  }

  const env = options.env ?? process.env;
  const endpoint = endpointOf(provider, options, env);
  const { fetch } = options;
  switch (provider) {
    case 'anthropic': {
      const apiKey = requireKey(provider, env, where);
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey, baseURL: withApiVersion(endpoint.url), fetch })(modelId);
    }
    case 'openai': {
      const apiKey = requireKey(provider, env, where);
      const { createOpenAI } = await import('@ai-sdk/openai');
      // Chat Completions rather than the default Responses API: it keeps no conversation state
      // on OpenAI's side, and it is the API every compatible server speaks.
      return createOpenAI({ apiKey, baseURL: endpoint.url, fetch }).chat(modelId);
    }
    case 'openai-compatible': {
      const baseURL = requireOpenAiCompatibleEndpoint(endpoint, where);
      const apiKey = firstSet(env, KEY_VARIABLES[provider])?.value;
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        // Without it a streamed reply carries no token counts, and token budgets cannot hold.
        includeUsage: true,
        fetch,
      }).chatModel(modelId);
    }
  }
}

export interface CheckReachableOptions extends ResolveModelOptions {
  signal?: AbortSignal;
  /** How long the server may take to answer at all. Default 10 s. */
  timeoutMs?: number;
}

/**
 * Fails fast, before a run starts, when an openai-compatible server does not answer: a local
 * server that is not running is the most common setup mistake, and the model call itself would
 * retry it for a while first. Any HTTP answer counts as reachable. A no-op for other providers.
 * @throws ConfigError naming the base URL, the connection error and the fix.
 */
export async function checkReachable(
  spec: string,
  options: CheckReachableOptions = {},
): Promise<void> {
  const { provider, where } = parseSpec(spec, options.source);
  if (provider !== 'openai-compatible') return;
  const endpoint = endpointOf(provider, options, options.env ?? process.env);
  const baseUrl = requireOpenAiCompatibleEndpoint(endpoint, where);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await (options.fetch ?? fetch)(`${baseUrl.replace(/\/+$/, '')}/models`, {
      signal,
    });
    await response.body?.cancel();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const failure = timeout.aborted
      ? { message: `no answer within ${timeoutMs} ms`, hint: 'is the server running?' }
      : connectionFailure(error);
    if (failure === undefined) throw error;
    throw new ConfigError(
      endpoint.where,
      `${baseUrl} is unreachable: ${failure.message}`,
      failure.hint,
    );
  }
}

export interface DescribeModelErrorOptions
  extends Pick<ResolveModelOptions, 'baseUrl' | 'env' | 'source'> {
  /** The spec the failing model was resolved from. */
  spec: string;
}

/**
 * One line for a model call that failed for good because of the setup (unreachable server,
 * refused key, unknown model), naming what to fix; undefined for any other failure, which the
 * caller reports as it is. Pass the options `resolveModel` got.
 */
export function describeModelError(
  error: unknown,
  options: DescribeModelErrorOptions,
): string | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const colon = options.spec.indexOf(':');
  const provider = colon === -1 ? '' : options.spec.slice(0, colon);
  if (!isProviderName(provider) || provider === 'scripted') return undefined;
  const env = options.env ?? process.env;
  const endpoint = endpointOf(provider, options, env);

  if (error.statusCode === undefined) {
    const failure = connectionFailure(error);
    if (failure === undefined) return undefined;
    const server = endpoint.isDefault ? endpoint.url : `${endpoint.where}: ${endpoint.url}`;
    return `${server} is unreachable: ${failure.message} (${failure.hint})`;
  }

  const where = `${options.source ?? '--model'} ${options.spec}`;
  const answer = `${endpoint.url ?? originOf(error.url)} answered ${error.statusCode}: ${oneLine(error.message)}`;
  if (error.statusCode === 401 || error.statusCode === 403) {
    const variables = KEY_VARIABLES[provider];
    const used = firstSet(env, variables)?.variable;
    return `${where}: ${answer} (${used ? `check ${used}` : `set ${variables.join(' or ')}`})`;
  }
  if (error.statusCode === 404) {
    const fix =
      provider === 'openai-compatible'
        ? `check the model id, and that ${endpoint.where} is the address that serves /chat/completions (often ending in /v1)`
        : 'check the model id';
    return `${where}: ${answer} (${fix})`;
  }
  return undefined;
}

function parseSpec(spec: string, source = '--model'): ParsedSpec {
  const where = `${source} ${spec}`;
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? spec : spec.slice(0, colon);
  const modelId = colon === -1 ? '' : spec.slice(colon + 1).trim();
  if (!isProviderName(provider)) {
    throw new ConfigError(
      where,
      colon === -1 ? 'is not of the form provider:model' : `unknown provider "${provider}"`,
      `use one of ${PROVIDERS.map((name) => `${name}:<model>`).join(', ')}`,
    );
  }
  if (modelId === '') {
    const example = provider === 'scripted' ? 'scripted:./replies.json' : `${provider}:<model-id>`;
    throw new ConfigError(where, 'names no model', `write ${example}`);
  }
  return { provider, modelId, where };
}

function requireKey(
  provider: HttpProvider,
  env: Record<string, string | undefined>,
  where: string,
): string {
  const variables = KEY_VARIABLES[provider];
  const key = firstSet(env, variables);
  if (key !== undefined) return key.value;
  const variable = variables.join(' or ');
  throw new ConfigError(
    where,
    `needs ${variable}, which is not set`,
    `export ${variables[0]}=<your key>, or choose another --model`,
  );
}

interface Endpoint {
  /** The setting it came from: `--base-url`, `WARREN_BASE_URL`, `ANTHROPIC_BASE_URL`. */
  where: string;
  url: string | undefined;
  /** True when nothing was set and the provider's public API is used. */
  isDefault: boolean;
}

/**
 * Where a provider's requests go. `--base-url` serves openai-compatible only: a sub-agent on
 * `anthropic:` must not follow the main agent to a local server.
 */
function endpointOf(
  provider: HttpProvider,
  options: Pick<ResolveModelOptions, 'baseUrl'>,
  env: Record<string, string | undefined>,
): Endpoint {
  const flag = provider === 'openai-compatible' ? options.baseUrl?.trim() : undefined;
  const variable = ENDPOINT_VARIABLES[provider];
  const [where, value] = flag ? ['--base-url', flag] : [variable, env[variable]?.trim()];
  if (!value) return { where, url: DEFAULT_ENDPOINTS[provider], isDefault: true };

  if (!isHttpUrl(value)) {
    throw new ConfigError(
      `${where} ${value}`,
      'is not an http(s) URL',
      `give the server's address, e.g. ${ENDPOINT_EXAMPLES[provider]}`,
    );
  }
  return { where, url: value, isDefault: false };
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function requireOpenAiCompatibleEndpoint(endpoint: Endpoint, where: string): string {
  if (endpoint.url !== undefined) return endpoint.url;
  throw new ConfigError(
    where,
    'needs the address of the server',
    `pass --base-url or set WARREN_BASE_URL, e.g. ${ENDPOINT_EXAMPLES['openai-compatible']}`,
  );
}

/**
 * ANTHROPIC_BASE_URL is an origin without `/v1` in Anthropic's own SDK and in Claude Code, while
 * the AI SDK provider wants the `/v1` included; both spellings work here.
 */
function withApiVersion(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}

function firstSet(
  env: Record<string, string | undefined>,
  variables: readonly string[],
): { variable: string; value: string } | undefined {
  for (const variable of variables) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/** Codes of a connection that never opened, as opposed to one that broke mid-way. */
const UNREACHABLE_HINTS: Record<string, string> = {
  ECONNREFUSED: 'is the server running?',
  ENOTFOUND: 'check the host name',
  EAI_AGAIN: 'check the host name and your network',
  EHOSTUNREACH: 'check the address and your network',
  ENETUNREACH: 'check your network',
  ETIMEDOUT: 'check the address and your network',
  UND_ERR_CONNECT_TIMEOUT: 'check the address and your network',
};

function connectionFailure(error: unknown): { message: string; hint: string } | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); ) {
    seen.add(current);
    // undici refuses the Fetch standard's blocked ports (9, 6000, ...) before connecting.
    if (current.message === 'bad port') {
      return { message: 'fetch refuses this port', hint: 'run the server on another port' };
    }
    const code = (current as { code?: unknown }).code;
    const hint = typeof code === 'string' ? UNREACHABLE_HINTS[code] : undefined;
    if (hint !== undefined) return { message: oneLine(current.message), hint };
    current = current.cause;
  }
  return undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
