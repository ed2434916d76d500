// The facts about where an agent runs, appended to every system prompt (main agent and
// sub-agents alike) so a model never has to guess its working directory or the date.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function environmentSection(params: { cwd: string }): string {
  const isGitRepo = existsSync(join(params.cwd, '.git'));
  return `Environment:
- Working directory: ${params.cwd}${isGitRepo ? ' (a git repository)' : ''}
- Platform: ${process.platform}
- Date: ${new Date().toISOString().slice(0, 10)}`;
}

/** A definition's prompt with the environment after it. */
export function withEnvironment(prompt: string, params: { cwd: string }): string {
  return `${prompt.trim()}\n\n${environmentSection(params)}`;
}
