// Where warren keeps a person's own files (sessions, the trust record, user settings):
// `$WARREN_HOME`, else `~/.warren`. One answer, so every layer moves together with the variable.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function warrenHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.WARREN_HOME || join(homedir(), '.warren');
}
