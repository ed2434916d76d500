// The sessions a person can go back to (`/resume` lists them): newest first, each with the folder
// it ran in, its first prompt and when it was last written. A session whose transcript holds no
// prompt (opened, then left) is not one to go back to, and is left out.
import { headRecords, mainTranscripts } from './latest-session.js';

export interface SavedSession {
  id: string;
  /** The folder its main agent ran in; undefined when its first record does not say. */
  cwd: string | undefined;
  firstPrompt: string;
  /** Epoch ms of its last line. */
  modifiedAt: number;
}

/** Up to `limit` sessions with a prompt, newest first. */
export function savedSessions(sessionDir: string, limit: number): SavedSession[] {
  const transcripts = mainTranscripts(sessionDir).sort(
    (a, b) => b.mtimeMs - a.mtimeMs || b.id.localeCompare(a.id),
  );
  const found: SavedSession[] = [];
  for (const transcript of transcripts) {
    if (found.length >= limit) break;
    const records = headRecords(transcript.path);
    const start = records.find((record) => record.type === 'run_start' && record.depth === 0);
    const prompt = records.find((record) => {
      const message = record.message as { role?: unknown; content?: unknown } | undefined;
      return (
        record.type === 'message' &&
        record.depth === 0 &&
        message?.role === 'user' &&
        typeof message.content === 'string' &&
        !message.content.startsWith('<')
      );
    });
    if (prompt === undefined) continue;
    found.push({
      id: transcript.id,
      cwd: typeof start?.cwd === 'string' ? start.cwd : undefined,
      firstPrompt: String((prompt.message as { content: string }).content),
      modifiedAt: transcript.mtimeMs,
    });
  }
  return found;
}
