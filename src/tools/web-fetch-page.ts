// The WebFetch tool's request, loaded on its first call: the host resolved once and asked about
// again under `private:` if an address is private, one GET to the addresses checked, the page as
// text (web-fetch.ts has the rules).
import { type ToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { type HttpGetResponse, httpGet } from './http-get.js';
import { capText, decodeBody, htmlToText, pageKind } from './page-text.js';
import { type Destination, resolveDestination } from './web-destination.js';
import {
  FETCH_TIMEOUT_MS,
  MAX_RESULT_CHARS,
  subjectByName,
  type WebFetchInput,
} from './web-fetch.js';

/** Bytes read from a body (after decompression); the rest is never downloaded. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const MAX_ERROR_EXCERPT_CHARS = 2_000;
const MAX_REDIRECTS = 5;

const HEADERS = {
  'user-agent': 'warren-webfetch/0.1',
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
};

export async function fetchPage(input: WebFetchInput, ctx: ToolContext): Promise<ToolOutput> {
  const destination = await resolveDestination(new URL(input.url));
  if ('error' in destination) {
    return toolError(`Could not fetch ${input.url}: ${destination.error}.`);
  }
  const refusal = await privateRefusal(destination, ctx);
  if (refusal) return refusal;
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
  let url = new URL(input.url);
  let response: HttpGetResponse;
  try {
    for (let redirects = 0; ; redirects++) {
      response = await httpGet({ url, addresses: destination.addresses, headers: HEADERS, signal });
      const location = response.headers.location;
      if (response.status < 300 || response.status >= 400 || !location) break;
      response.discard();
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return toolError(`${url} redirects to ${next}, which is not an http(s) address.`);
      }
      if (next.hostname !== destination.host) {
        return `${url} redirects to another host: ${next}\nTo read it, call WebFetch with that URL (the new host needs its own permission).`;
      }
      if (redirects === MAX_REDIRECTS) {
        return toolError(`${input.url} redirected more than ${MAX_REDIRECTS} times; stopped.`);
      }
      url = next;
    }
    return await readPage(url, response, input.prompt);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const reason = signal.aborted
      ? `no complete answer within ${FETCH_TIMEOUT_MS / 1000} s`
      : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    return toolError(`Could not fetch ${url}: ${reason}.`);
  }
}

async function readPage(
  url: URL,
  response: HttpGetResponse,
  prompt: string | undefined,
): Promise<ToolOutput> {
  const contentType = headerText(response.headers['content-type']);
  if (contentType && pageKind(contentType, Buffer.alloc(0)) === undefined) {
    response.discard();
    return toolError(
      `${url} is ${contentType}, which WebFetch does not read: it reads HTML and text only.`,
    );
  }
  const { body, truncated } = await response.readBody(MAX_BODY_BYTES);
  const kind = pageKind(contentType, body);
  if (kind === undefined) {
    return toolError(`${url} is binary content, which WebFetch does not read.`);
  }
  const decoded = decodeBody(body, contentType);
  const text = kind === 'html' ? await htmlToText(decoded, url.href) : decoded.trim();
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status >= 400) {
    const excerpt = text.slice(0, MAX_ERROR_EXCERPT_CHARS);
    return toolError(`${url} answered ${status}.${excerpt ? `\n\n${excerpt}` : ''}`);
  }
  const capped = capText(text, MAX_RESULT_CHARS, prompt);
  const notes: string[] = [];
  if (truncated) {
    notes.push(`[The body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB; only the start was read.]`);
  }
  if (capped.selected) {
    notes.push(
      `[Passages matching the prompt; ${capped.omitted} characters of other passages left out.]`,
    );
  } else if (capped.omitted > 0) {
    notes.push(
      `[Cut at ${MAX_RESULT_CHARS} characters; ${capped.omitted} more left out. Pass a prompt to get the passages that match it instead.]`,
    );
  }
  const head = `${url} (${status}, ${contentType || kind}, ${body.length} bytes)`;
  return [head, ...notes, '', capped.text || '(no text)'].join('\n');
}

/**
 * A fetch on the local network needs `private:<host>`: a host allowed by its name that turns
 * out to resolve to a private address is asked about again, with the addresses in hand. Without
 * a permission policy (a bare agentLoop) there is no one to give it, so it is refused.
 */
async function privateRefusal(
  destination: Exclude<Destination, { error: string }>,
  ctx: ToolContext,
): Promise<ToolOutput | undefined> {
  if (!destination.isPrivate) return undefined;
  if (!ctx.askPermission) {
    return toolError(
      `Refused: ${destination.host} resolves to the private address ${destination.privateAddress}; fetches on the local network need permission, and no permission policy is there to give it.`,
    );
  }
  const subject = `private:${destination.host}`;
  // Checked under this subject already, by name (an address literal, localhost).
  if (subjectByName(destination.host) === subject) return undefined;
  const decision = await ctx.askPermission(subject);
  if (decision.behavior === 'allow') return undefined;
  return toolError(
    `${destination.host} resolves to the private address ${destination.privateAddress}. ${decision.message}`,
  );
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Why a URL cannot be fetched, or undefined when it can. */
