// `session/list` of `warren acp`: the sessions of the session folder an editor can load, newest
// first, those of one working folder when it asks, a page at a time (the cursor is an offset).
import { resolve } from 'node:path';
import type { ListSessionsRequest, ListSessionsResponse } from '@agentclientprotocol/sdk';
import { savedSessions } from '../session/saved-sessions.js';

const PAGE = 50;
/** How far back the listing looks: the newest sessions with a prompt. */
const LOOKED_AT = 1000;
const TITLE_CHARS = 80;

export type SessionListing = ListSessionsResponse | { refused: string };

export function listSessions(sessionDir: string, request: ListSessionsRequest): SessionListing {
  const cursor = request.cursor ?? '0';
  if (!/^\d{1,6}$/.test(cursor)) {
    return { refused: `cursor "${cursor.slice(0, 40)}" is not one this agent gave: leave it out` };
  }
  const start = Number(cursor);
  const cwd = request.cwd ? resolve(request.cwd) : undefined;
  const sessions = savedSessions(sessionDir, LOOKED_AT).filter(
    (session) => session.cwd !== undefined && (cwd === undefined || session.cwd === cwd),
  );
  const page = sessions.slice(start, start + PAGE);
  return {
    sessions: page.map((session) => ({
      sessionId: session.id,
      cwd: session.cwd!,
      title: titleOf(session.firstPrompt),
      updatedAt: new Date(session.modifiedAt).toISOString(),
    })),
    ...(start + PAGE < sessions.length ? { nextCursor: String(start + PAGE) } : {}),
  };
}

/** The first line of the first prompt, shortened. */
function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0] ?? '';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
