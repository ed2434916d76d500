// How every system prompt is laid out (main agent and sub-agents alike): the definition's
// prompt, then sections that hold for the whole session (project instructions, say), then the
// facts about where the agent runs: working directory, platform, the session's date. Nothing
// that changes within a session goes in. The system prompt opens every request right after the
// tools, so one changed byte there makes the provider's prompt cache miss for all that follows;
// the date is therefore the session's, taken once, not the date of each request.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface SessionEnvironment {
  cwd: string;
  /** The session's date, `YYYY-MM-DD`; default: today's. */
  date?: string;
}

/** Today's date as the environment section writes it: take it once per session. */
export function sessionDate(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function environmentSection(params: SessionEnvironment): string {
  const isGitRepo = existsSync(join(params.cwd, '.git'));
  return `Environment:
- Working directory: ${params.cwd}${isGitRepo ? ' (a git repository)' : ''}
- Platform: ${process.platform}
- Date: ${params.date ?? sessionDate()}`;
}

/**
 * A system prompt: `prompt`, then `sections` (each stable for the session, in a fixed order),
 * then the environment, last since it is the part most likely to differ between sessions.
 */
export function withEnvironment(
  prompt: string,
  params: SessionEnvironment & { sections?: readonly string[] },
): string {
  const parts = [prompt, ...(params.sections ?? [])].map((part) => part.trim()).filter(Boolean);
  return [...parts, environmentSection(params)].join('\n\n');
}
