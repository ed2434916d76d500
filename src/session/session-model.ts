// The model a session ran with and the server it asked, kept beside its transcript
// (`<session-dir>/<session-id>/model.json`) so `--resume` and `--continue` go on with them
// without `--model` again. Never a key: a base URL with credentials is refused before a run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { isSafeId, mainTranscriptPath } from './session-paths.js';

export interface SessionModel {
  /** The spec as given: `anthropic:claude-sonnet-4-5`, `openai-compatible:qwen`, `scripted:…`. */
  model: string;
  /** `--base-url` (or `WARREN_BASE_URL`) when one was given. */
  baseUrl?: string;
}

const sessionModelSchema = lazy(() =>
  z.object({ model: z.string().min(1), baseUrl: z.string().optional() }),
);

function sessionModelPath(sessionDir: string, sessionId: string): string {
  // The transcript's path checks the id is a safe file name.
  mainTranscriptPath(sessionDir, sessionId);
  return join(sessionDir, sessionId, 'model.json');
}

/** Records what the session runs with; a later run of the session with another model replaces it. */
export function writeSessionModel(
  sessionDir: string,
  sessionId: string,
  model: SessionModel,
): void {
  const path = sessionModelPath(sessionDir, sessionId);
  mkdirSync(dirname(path), { recursive: true });
  const record: SessionModel = { model: model.model };
  if (model.baseUrl !== undefined) record.baseUrl = model.baseUrl;
  writeFileSync(path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/**
 * What the session ran with, or undefined for a session from before this file existed, or one
 * whose file is unreadable (the caller then asks for `--model` as for a new session).
 */
export function readSessionModel(sessionDir: string, sessionId: string): SessionModel | undefined {
  // An id that is no file name is refused where the conversation is read, with the fix.
  if (!isSafeId(sessionId)) return undefined;
  let text: string;
  try {
    text = readFileSync(sessionModelPath(sessionDir, sessionId), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = sessionModelSchema().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
