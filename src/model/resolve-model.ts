// Turns a `provider:model` spec into a LanguageModelV4, loading only the provider package it
// needs (its responses capped in size). Nothing is sent here: a server that is not there shows
// in the run's first request (first-contact.ts). Setup mistakes found here are ConfigErrors
// naming the flag or variable to fix.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ConfigError } from '../core/config-error.js';
import {
  ENDPOINT_EXAMPLES,
  type Endpoint,
  endpointOf,
  firstSet,
  type HttpProvider,
  isProviderName,
  KEY_VARIABLES,
  PROVIDERS,
  type ProviderName,
  rememberEndpoint,
} from './model-endpoint.js';
import { cappedFetch } from './response-size-cap.js';

export interface ResolveModelOptions {
  /** The `--base-url` flag: where openai-compatible requests go (else WARREN_BASE_URL). */
  baseUrl?: string;
  /** Where keys and endpoints are read from; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** Handed to the provider, for tests and instrumentation. */
  fetch?: typeof fetch;
  /** Where the spec came from, for error messages: `--model` (default), `agents/x.md: model`. */
  source?: string;
  /** Bytes one response may carry before the call fails; default MAX_RESPONSE_BYTES (64 MiB). */
  maxResponseBytes?: number;
}

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
  const fetch = cappedFetch(options.fetch, options.maxResponseBytes);
  switch (provider) {
    case 'anthropic': {
      const apiKey = requireKey(provider, env, where);
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const model = createAnthropic({ apiKey, baseURL: withApiVersion(endpoint.url), fetch });
      return rememberEndpoint(model(modelId), endpoint);
    }
    case 'openai': {
      const apiKey = requireKey(provider, env, where);
      const { createOpenAI } = await import('@ai-sdk/openai');
      // Chat Completions rather than the default Responses API: it keeps no conversation state
      // on OpenAI's side, and it is the API every compatible server speaks.
      return rememberEndpoint(
        createOpenAI({ apiKey, baseURL: endpoint.url, fetch }).chat(modelId),
        endpoint,
      );
    }
    case 'openai-compatible': {
      const baseURL = requireOpenAiCompatibleEndpoint(endpoint, where);
      const apiKey = firstSet(env, KEY_VARIABLES[provider])?.value;
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const model = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        // Without it a streamed reply carries no token counts, and token budgets cannot hold.
        includeUsage: true,
        fetch,
      }).chatModel(modelId);
      return rememberEndpoint(model, endpoint);
    }
  }
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
