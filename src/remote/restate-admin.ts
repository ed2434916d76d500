// Restate's admin API, the few calls warren makes: register a worker (`POST /deployments`),
// cancel a child's invocation (`PATCH /invocations/{id}/cancel`), and check that the URLs a
// person gave answer, with messages that name the URL and the fix.
import { ConfigError } from '../core/config-error.js';

/** How long a check of a URL waits for an answer. */
const CHECK_TIMEOUT_MS = 5_000;

/** A URL from a flag or variable, checked: http(s), no credentials in it, no trailing slash. */
export function checkedUrl(value: string, where: string, example: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(where, `"${value}" is not a URL`, `e.g. ${where} ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      where,
      `expected an http or https URL, got "${url.protocol}"`,
      `e.g. ${where} ${example}`,
    );
  }
  if (url.username || url.password) {
    // A URL is printed in messages; a secret in it would be printed too.
    throw new ConfigError(
      where,
      'must not carry a user name or password',
      'put credentials in a header or the network, not the URL',
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** The admin URL Restate listens on by default, beside an ingress URL (port 9070). */
export function defaultAdminUrl(ingressUrl: string): string {
  const url = new URL(ingressUrl);
  url.port = '9070';
  return url.href.replace(/\/+$/, '');
}

/**
 * Registers a worker's URL, so restate-server discovers its services and invokes them there.
 * `force` replaces a deployment at the same URL (a worker upgraded in place).
 * @throws ConfigError naming the URL that failed and why.
 */
export async function registerWorker(params: {
  adminUrl: string;
  workerUrl: string;
  force?: boolean;
  fetch?: typeof fetch;
}): Promise<{ id: string; services: string[] }> {
  const response = await callAdmin(
    params,
    '/deployments',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: params.workerUrl, force: params.force ?? true }),
      signal: AbortSignal.timeout(60_000),
    },
    '--admin-url',
    'start restate-server, or pass the admin URL it listens on (port 9070 by default)',
  );
  const body = await response.text();
  if (!response.ok) {
    throw new ConfigError(
      `--worker-url ${params.workerUrl}`,
      `restate-server could not register it (${response.status}): ${firstLine(body)}`,
      'start the worker first (warren restate serve --port <p>), and give a URL restate-server can reach',
    );
  }
  const parsed = JSON.parse(body) as { id?: string; services?: Array<{ name?: string }> };
  return {
    id: parsed.id ?? '',
    services: (parsed.services ?? []).map((service) => service.name ?? '').filter(Boolean),
  };
}

/**
 * Cancels an invocation. Already ended (409) or unknown (404) is not a failure: there is
 * nothing left to stop.
 */
export async function cancelInvocation(params: {
  adminUrl: string;
  invocationId: string;
  fetch?: typeof fetch;
}): Promise<void> {
  if (!/^inv_[A-Za-z0-9]+$/.test(params.invocationId)) {
    throw new Error(`not an invocation id: ${params.invocationId}`);
  }
  const response = await callAdmin(
    params,
    `/invocations/${params.invocationId}/cancel`,
    { method: 'PATCH', signal: AbortSignal.timeout(30_000) },
    '--restate-admin-url',
    'cancelling needs the admin API: pass --restate-admin-url (or WARREN_RESTATE_ADMIN_URL)',
  );
  await response.body?.cancel();
  if (response.ok || response.status === 404 || response.status === 409) return;
  throw new Error(`restate-server did not cancel ${params.invocationId}: HTTP ${response.status}`);
}

/**
 * Checks before a run that the ingress answers and serves the `subagent` workflow, so a wrong
 * URL or an unregistered worker is one clear line at start, not a failure deep in a run.
 * @throws ConfigError naming the URL and the fix.
 */
export async function checkIngress(params: {
  ingressUrl: string;
  where: string;
  service: string;
  fetch?: typeof fetch;
}): Promise<void> {
  const call = params.fetch ?? fetch;
  const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  let response: Response;
  try {
    response = await call(`${params.ingressUrl}/restate/health`, { signal });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw unreachable(
      params.where,
      params.ingressUrl,
      error,
      'start restate-server, or pass the ingress URL it listens on (port 8080 by default)',
    );
  }
  // A shared handler of a key nobody used answers null; an unregistered service answers 404.
  const probe = await call(`${params.ingressUrl}/${params.service}/agent_probe/status`, {
    method: 'POST',
    signal,
  }).catch(() => undefined);
  if (probe?.status === 404) {
    await probe.body?.cancel();
    throw new ConfigError(
      `${params.where} ${params.ingressUrl}`,
      `restate-server there has no "${params.service}" service: no warren worker is registered`,
      'start one with warren restate serve --port <p>, then warren restate register --admin-url <admin> --worker-url <worker>',
    );
  }
  await probe?.body?.cancel();
}

/** A request to the admin API; no answer is a ConfigError naming `where` (its flag) and the fix. */
async function callAdmin(
  params: { adminUrl: string; fetch?: typeof fetch },
  path: string,
  init: RequestInit,
  where: string,
  fix: string,
): Promise<Response> {
  try {
    return await (params.fetch ?? fetch)(`${params.adminUrl}${path}`, init);
  } catch (error) {
    throw unreachable(where, params.adminUrl, error, fix);
  }
}

function unreachable(where: string, url: string, error: unknown, fix: string): ConfigError {
  const cause =
    error instanceof Error
      ? ((error.cause as Error | undefined)?.message ?? error.message)
      : String(error);
  return new ConfigError(`${where} ${url}`, `restate-server does not answer there (${cause})`, fix);
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
