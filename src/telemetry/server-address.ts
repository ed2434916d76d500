// Where a model's requests go, as OpenTelemetry's `server.address` and `server.port` name it:
// the same address the model layer sends to (model/model-endpoint.ts), never with credentials.
import type { Attributes } from '@opentelemetry/api';
import { endpointOf, type HttpProvider } from '../model/model-endpoint.js';

const HTTP_PROVIDERS: readonly string[] = ['anthropic', 'openai', 'openai-compatible'];

/** `server.address` (and `server.port` when the URL names one) for a `provider:model` spec. */
export function serverAttributes(
  model: string,
  options: { baseUrl?: string; env?: Record<string, string | undefined> } = {},
): Attributes {
  const provider = model.slice(0, Math.max(0, model.indexOf(':')));
  if (!HTTP_PROVIDERS.includes(provider)) return {};
  let url: URL;
  try {
    const endpoint = endpointOf(
      provider as HttpProvider,
      { baseUrl: options.baseUrl },
      options.env ?? process.env,
    );
    if (endpoint.url === undefined) return {};
    url = new URL(endpoint.url);
  } catch {
    return {};
  }
  return {
    'server.address': url.hostname,
    ...(url.port !== '' && { 'server.port': Number(url.port) }),
  };
}
