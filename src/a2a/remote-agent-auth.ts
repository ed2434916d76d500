// The headers a `kind: remote` definition's `auth` makes, as Gemini CLI reads it: `apiKey` in
// its header (X-API-Key by default), `http` as `Authorization: <scheme> …`. `$VAR` values come
// from the environment when the agent runs; a missing variable is an error naming it.
import type { RemoteAgentAuth } from '../definitions/remote-agent-fields.js';

export function authHeaders(
  auth: RemoteAgentAuth | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  if (!auth) return {};
  const value = (field: string, written: string | undefined): string => {
    if (written === undefined) throw new Error(`auth.${field} is missing`);
    if (written.startsWith('$$')) return written.slice(1);
    if (!written.startsWith('$')) return written;
    const name = written.slice(1);
    const found = env[name];
    if (!found) throw new Error(`auth.${field} names $${name}, which is not set`);
    return found;
  };
  if (auth.type === 'apiKey') return { [auth.name ?? 'X-API-Key']: value('key', auth.key) };
  const scheme = auth.scheme;
  if (/^bearer$/i.test(scheme)) return { Authorization: `Bearer ${value('token', auth.token)}` };
  if (/^basic$/i.test(scheme)) {
    const pair = `${value('username', auth.username)}:${value('password', auth.password)}`;
    return { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
  }
  return { Authorization: `${scheme} ${value('value', auth.value)}` };
}
