// Where sessions live on disk: the session folder, session ids, and the path of each agent's
// transcript in it. Ids become file names, so this module also decides which ids are safe.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { warrenHome } from '../core/warren-home.js';

/** One path segment: no separators, no `..`, no leading dot (hidden files), nothing a shell or Windows minds. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** `$WARREN_HOME/sessions`, else `~/.warren/sessions`. */
export function defaultSessionDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(warrenHome(env), 'sessions');
}

/**
 * A new session id such as `2025-06-01T12-30-45.123Z-3f9a1c2b`: ids sort by creation time as
 * plain strings (so `ls` shows sessions in order), and the random suffix keeps runs started in
 * the same millisecond apart.
 */
export function newSessionId(now: Date = new Date()): string {
  const timestamp = now.toISOString().replaceAll(':', '-');
  return `${timestamp}-${randomBytes(4).toString('hex')}`;
}

export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}

export interface ValidateSessionIdOptions {
  /** Where the id came from, as the person typed it; named in the error. */
  where?: string;
}

/** Returns a session id given by a person, or refuses one that could leave the session folder. */
export function validateSessionId(id: string, options: ValidateSessionIdOptions = {}): string {
  if (isSafeId(id)) return id;
  throw new ConfigError(
    options.where ?? '--resume',
    `${JSON.stringify(id)} is not a session id (ids are file names: letters, digits, ".", "_", "-", starting with a letter or digit)`,
    'pass the "session_id" an earlier run reported, or the name of a .jsonl file in the session folder without ".jsonl"',
  );
}

export function mainTranscriptPath(sessionDir: string, sessionId: string): string {
  return join(sessionDir, `${requireSafe('session id', sessionId)}.jsonl`);
}

/** A sub-agent's transcript (its sidechain): `<session-dir>/<session-id>/agents/<agent-id>.jsonl`. */
export function agentTranscriptPath(
  sessionDir: string,
  sessionId: string,
  agentId: string,
): string {
  return join(
    sessionDir,
    requireSafe('session id', sessionId),
    'agents',
    `${requireSafe('agent id', agentId)}.jsonl`,
  );
}

/** Ids from people are checked by `validateSessionId`; an unsafe one here is a bug in warren. */
function requireSafe(kind: string, id: string): string {
  if (isSafeId(id)) return id;
  throw new Error(`${kind} ${JSON.stringify(id)} cannot be used as a file name`);
}

/** The session's task store: `<session-dir>/<session-id>/tasks.db`. */
export function taskStorePath(sessionDir: string, sessionId: string): string {
  return join(sessionDir, requireSafe('session id', sessionId), 'tasks.db');
}

/** Where background commands of the session write their output: `<session-dir>/<session-id>/tasks/`. */
export function taskOutputDir(sessionDir: string, sessionId: string): string {
  return join(sessionDir, requireSafe('session id', sessionId), 'tasks');
}
