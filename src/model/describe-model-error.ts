// What a failed model call says to a person: one line naming the model (and so the provider),
// the server's address, what happened (status and message, no answer, a cut or oversized reply)
// and the likely fix. Retry notices carry the same line without the fix.

import { APICallError } from '@ai-sdk/provider';
import { messageOf } from '../core/error-message.js';
import {
  type Endpoint,
  endpointOf,
  firstSet,
  type HttpProvider,
  isProviderName,
  KEY_VARIABLES,
} from './model-endpoint.js';
import { formatSeconds, RequestTimeoutError } from './request-timeout.js';
import { ReplyTooLargeError } from './response-size-cap.js';
import { StreamCutError } from './retry-policy.js';

export interface DescribeModelErrorOptions {
  /** The spec the failing model was resolved from (`provider:model`). */
  spec: string;
  /** What `resolveModel` got: the `--base-url`, and where variables are read from. */
  baseUrl?: string;
  env?: Record<string, string | undefined>;
  /** Where the spec came from: `--model` (default), `agents/x.md: model`. */
  source?: string;
  /** Where the model's requests went, if known (`endpointOfModel`); else worked out from the above. */
  endpoint?: Endpoint;
}

interface Diagnosis {
  /** Who failed: `--model openai:gpt-4.1`, or the setting of an unreachable server. */
  where: string;
  what: string;
  fix?: string;
}

/**
 * One line for a model call that failed for good: what happened and what to fix. Undefined for
 * an error that is not about the model call (the caller reports it as it is).
 */
export function describeModelError(
  error: unknown,
  options: DescribeModelErrorOptions,
): string | undefined {
  const diagnosis = diagnose(error, options);
  if (!diagnosis) return undefined;
  const { where, what, fix } = diagnosis;
  return `${where}: ${what}${fix ? ` (${fix})` : ''}`;
}

/** What happened, without the fix: the line of a retry notice. */
export function describeModelFailure(error: unknown, options: DescribeModelErrorOptions): string {
  const diagnosis = diagnose(error, options);
  return diagnosis ? `${diagnosis.where}: ${diagnosis.what}` : messageOf(error);
}

function diagnose(error: unknown, options: DescribeModelErrorOptions): Diagnosis | undefined {
  const colon = options.spec.indexOf(':');
  const name = colon === -1 ? options.spec : options.spec.slice(0, colon);
  const provider = isProviderName(name) && name !== 'scripted' ? name : undefined;
  const env = options.env ?? process.env;
  const endpoint =
    options.endpoint ?? (provider ? safeEndpoint(provider, options, env) : undefined);
  const server = endpoint?.url ?? originOf(error) ?? 'the model';
  const where = `${options.source ?? '--model'} ${options.spec}`;

  if (RequestTimeoutError.isInstance(error)) {
    const seconds = formatSeconds(error.timeoutMs);
    return {
      where,
      what:
        error.stage === 'response'
          ? `no answer from ${server} in ${seconds}`
          : `the reply from ${server} stopped: nothing more came for ${seconds}`,
      fix: 'is the server overloaded or stuck? For a slow model, raise --request-timeout',
    };
  }
  const tooLarge = findCause(error, ReplyTooLargeError.isInstance);
  if (tooLarge) {
    return {
      where,
      what: tooLarge.message.replace(/^the reply/, `the reply from ${server}`),
      fix: 'the model ran away or the server is broken; lower maxOutputTokens, or check the server',
    };
  }
  if (error instanceof StreamCutError) {
    return {
      where,
      what: `the reply from ${server} broke off: ${error.message}`,
      fix: 'the connection dropped mid-reply, also when retried; try again',
    };
  }
  if (!APICallError.isInstance(error)) return undefined;

  if (error.statusCode === undefined) {
    const failure = connectionFailure(error);
    if (failure === undefined) {
      // The connection opened, then closed before the reply began (a proxy cutting it).
      return {
        where,
        what: `the connection to ${server} was cut before the reply began: ${deepestMessage(error)}`,
        fix: 'the stream was cut, also when retried; check for a proxy or load balancer between warren and the server, then try again',
      };
    }
    return {
      // The setting to fix, when one set the address.
      where: endpoint && !endpoint.isDefault ? endpoint.where : where,
      what: `${server} is unreachable: ${failure.message}`,
      fix: failure.hint,
    };
  }
  if (error.statusCode >= 200 && error.statusCode < 300) {
    // A 200 whose body broke off: the SDK says "Failed to process successful response".
    return {
      where,
      what: `the reply from ${server} broke off: the stream was cut (${deepestMessage(error)})`,
      fix: 'the connection dropped mid-reply, also when retried; try again',
    };
  }
  return {
    where,
    what: `${server} answered ${error.statusCode}: ${oneLine(error.message)}`,
    fix: provider && endpoint ? fixFor(error, provider, endpoint, env) : undefined,
  };
}

function fixFor(
  error: APICallError,
  provider: HttpProvider,
  endpoint: Endpoint,
  env: Record<string, string | undefined>,
): string | undefined {
  const status = error.statusCode ?? 0;
  const compatible = provider === 'openai-compatible';
  const said = `${error.message} ${error.responseBody ?? ''}`;
  if (status === 401 || status === 403) {
    const variables = KEY_VARIABLES[provider];
    const used = firstSet(env, variables)?.variable;
    return used ? `check ${used}` : `set ${variables.join(' or ')}`;
  }
  if (status === 404) {
    if (compatible) {
      return `check the model id, and that ${endpoint.where} is the address that serves /chat/completions (often ending in /v1)`;
    }
    // The provider's own "no such model" names the model; anything else is the wrong server.
    if (endpoint.isDefault || /model/i.test(said)) return 'check the model id';
    return `check ${endpoint.where}: nothing answers at ${error.url}`;
  }
  if (status === 400 || status === 422) {
    if (compatible) {
      return 'the server refused the request; most often its tool calling is off: start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>, llama.cpp with --jinja';
    }
    if (/context|too long|too many tokens|maximum/i.test(said)) {
      return 'the conversation is longer than the model takes; start a new session';
    }
    return 'the provider refused the request as invalid; its message says why';
  }
  if (status === 413) return 'the request is too large for the server; start a new session';
  if (status === 408 || status === 429 || status === 529 || status >= 500) {
    const retried = 'also when retried';
    if (status === 429) return `rate limited, ${retried}; wait, or lower --max-parallel`;
    if (status === 529 || /overloaded/i.test(said)) {
      return `the provider is overloaded, ${retried}; try again later`;
    }
    return compatible
      ? `the server failed, ${retried}; its log says why`
      : `the provider failed, ${retried}; try again later`;
  }
  return undefined;
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

/** Why a connection never opened, and what to check; undefined for any other failure. */
export function connectionFailure(error: unknown): { message: string; hint: string } | undefined {
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

function safeEndpoint(
  provider: HttpProvider,
  options: DescribeModelErrorOptions,
  env: Record<string, string | undefined>,
): Endpoint | undefined {
  try {
    return endpointOf(provider, options, env);
  } catch {
    return undefined;
  }
}

function findCause<T>(error: unknown, is: (value: unknown) => value is T): T | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (is(cause)) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The server of a failed request: its origin, or the whole URL when it has none (`scripted:x`). */
function originOf(error: unknown): string | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  try {
    const { origin } = new URL(error.url);
    return origin === 'null' ? error.url : origin;
  } catch {
    return error.url || undefined;
  }
}

/** What the innermost cause says: `other side closed` rather than `Cannot connect to API`. */
function deepestMessage(error: Error): string {
  let deepest = error;
  for (let depth = 0; depth < 5 && deepest.cause instanceof Error; depth++) deepest = deepest.cause;
  return oneLine(deepest.message);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
