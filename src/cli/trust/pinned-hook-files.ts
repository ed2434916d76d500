// Trust covers the scripts a project's hooks run as they were when the run started: each time
// such a hook is about to run, the files it names are hashed again, and a hook whose script was
// changed since (by an agent allowed to edit, say) is not run.
import { resolve } from 'node:path';
import { regularFileHash } from './named-files.js';
import type { ProjectTrust } from './project-trust.js';

/**
 * For `hookCommandCheck`: why a hook command must not run now, or undefined. Commands that are
 * no project item's (the person's own hooks) are never held back.
 */
export function pinnedHookCheck(
  trust: ProjectTrust,
): ((command: string) => string | undefined) | undefined {
  const pins = new Map<string, Record<string, string>>();
  for (const { item } of trust.items) {
    const command = item.fields.command;
    if (item.kind !== 'hook' || command === undefined || Object.keys(item.files).length === 0) {
      continue;
    }
    pins.set(command, { ...pins.get(command), ...item.files });
  }
  if (!trust.trusted || pins.size === 0) return undefined;
  return (command) => {
    const files = pins.get(command);
    if (!files) return undefined;
    const changed = Object.entries(files)
      .filter(([path, hash]) => regularFileHash(resolve(trust.projectDir, path)) !== hash)
      .map(([path]) => path);
    return changed.length === 0
      ? undefined
      : `not run: ${changed.join(', ')} changed since the run started, and the project's trust covers the script as it was (run warren trust again to trust the new version)`;
  };
}
