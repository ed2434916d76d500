// A remote agent reached over A2A, as Gemini CLI's files write it (`kind: remote` with
// `agent_card_url` or `agent_card_json`, and `auth`), read from any definition file: the card's
// address or text and how to authenticate, checked here; the call itself is made in a2a/.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import type { AgentDiagnostic } from './agent-load-entry.js';
import { at } from './mapped-fields.js';

/**
 * A secret as a file writes it: `$VAR` (read from the environment when the agent runs), `$$…`
 * for a literal `$…`, or a literal. Gemini CLI's `!command` is refused: see docs/a2a.md.
 */
const secretSchema = () => z.string().min(1);

export const remoteAgentAuthSchema = lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('apiKey'),
      key: secretSchema(),
      name: z.string().min(1).optional(),
    }),
    z.strictObject({
      type: z.literal('http'),
      scheme: z.string().min(1),
      token: secretSchema().optional(),
      username: secretSchema().optional(),
      password: secretSchema().optional(),
      value: secretSchema().optional(),
    }),
  ]),
);
export type RemoteAgentAuth = z.infer<ReturnType<typeof remoteAgentAuthSchema>>;

export const remoteAgentSchema = lazy(() =>
  z
    .strictObject({
      /** Where the agent card is served. */
      cardUrl: z.string().optional(),
      /** The agent card itself, as JSON text. */
      cardJson: z.string().optional(),
      auth: remoteAgentAuthSchema().optional(),
    })
    .superRefine((value, ctx) => {
      const problem = remoteAgentProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('{ cardUrl | cardJson, auth? }: an A2A agent (docs/a2a.md)'),
);
export type RemoteAgent = z.infer<ReturnType<typeof remoteAgentSchema>>;

const REMOTE_KEYS = ['kind', 'agent_card_url', 'agent_card_json', 'auth'] as const;

export type TakenRemoteFields =
  | { remote?: undefined; error?: undefined }
  | { remote: RemoteAgent; error?: undefined }
  | { remote?: undefined; error: AgentDiagnostic };

/**
 * For a `kind: remote` file: takes the remote keys out of `fields` (so they are no unknown
 * fields), gives it a description from its card when it has none, and returns what they say.
 * Leaves any other file alone.
 */
export function takeRemoteAgentFields(
  fields: Record<string, unknown>,
  lines: Record<string, number>,
): TakenRemoteFields {
  if (fields.kind !== 'remote') return {};
  const written = Object.fromEntries(REMOTE_KEYS.map((key) => [key, fields[key]]));
  for (const key of REMOTE_KEYS) delete fields[key];
  const fail = (key: string, message: string): TakenRemoteFields => ({
    error: at(lines[key] ?? lines.kind, message),
  });
  const url = written.agent_card_url;
  const json =
    typeof written.agent_card_json === 'object' && written.agent_card_json !== null
      ? JSON.stringify(written.agent_card_json)
      : written.agent_card_json;
  if ((url === undefined) === (json === undefined)) {
    return fail('kind', '`kind: remote` needs one of `agent_card_url` or `agent_card_json`');
  }
  if (url !== undefined && (typeof url !== 'string' || !isHttpUrl(url))) {
    return fail('agent_card_url', '`agent_card_url` must be an http(s) URL of the agent card');
  }
  let card: Record<string, unknown> | undefined;
  if (json !== undefined) {
    card = typeof json === 'string' ? parseObject(json) : undefined;
    if (!card)
      return fail('agent_card_json', '`agent_card_json` must be the agent card as a JSON object');
  }
  let auth: RemoteAgentAuth | undefined;
  if (written.auth !== undefined) {
    const parsed = remoteAgentAuthSchema().safeParse(written.auth);
    if (!parsed.success) {
      const type = (written.auth as { type?: unknown } | null)?.type;
      return fail(
        'auth',
        type === 'google-credentials' || type === 'oauth'
          ? `\`auth.type: ${type}\` is not supported by warren yet; use \`apiKey\` or \`http\``
          : `\`auth\` must be { type: apiKey, key } or { type: http, scheme, token | username and password | value } (${parsed.error.issues[0]?.message})`,
      );
    }
    const command = Object.values(parsed.data).find(
      (value) => typeof value === 'string' && value.startsWith('!') && !value.startsWith('!!'),
    );
    if (command) {
      return fail(
        'auth',
        '`auth` values run as `!command` are not supported by warren; use `$ENV_VAR`',
      );
    }
    auth = parsed.data;
  }
  if (fields.description === undefined) {
    fields.description =
      typeof card?.description === 'string' && card.description.trim()
        ? card.description
        : `A remote agent reached over A2A (card at ${url}).`;
  }
  const remote: RemoteAgent = {
    ...(typeof url === 'string' ? { cardUrl: url } : {}),
    ...(typeof json === 'string' ? { cardJson: json } : {}),
    ...(auth ? { auth } : {}),
  };
  // Read on as warren's own `remote` field, at the line of `kind`.
  fields.remote = remote;
  if (lines.kind !== undefined) lines.remote = lines.kind;
  return { remote };
}

/** Why a remote agent as given cannot be used; undefined when it can. */
function remoteAgentProblem(value: {
  cardUrl?: string;
  cardJson?: string;
  auth?: RemoteAgentAuth;
}): string | undefined {
  if ((value.cardUrl === undefined) === (value.cardJson === undefined)) {
    return 'give one of cardUrl (agent_card_url) or cardJson (agent_card_json)';
  }
  if (value.cardUrl !== undefined && !isHttpUrl(value.cardUrl)) {
    return 'the card URL must be an http(s) URL';
  }
  if (value.cardJson !== undefined && !parseObject(value.cardJson)) {
    return 'the inline card must be a JSON object';
  }
  const command = Object.values(value.auth ?? {}).some(
    (field) => typeof field === 'string' && field.startsWith('!') && !field.startsWith('!!'),
  );
  if (command) return 'auth values run as `!command` are not supported; use `$ENV_VAR`';
  return undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
