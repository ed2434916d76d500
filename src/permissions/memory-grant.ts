// The one permission a definition's `memory` adds: its agent may Write and Edit files inside its
// own memory folder without asking. Exactly that folder, checked on the path as given and on its
// real location, so a symlink in it cannot lead a write anywhere else.
import path from 'node:path';
import { canonicalLocation, isInside } from '../tools/allowed-path.js';
import type { PermissionTarget } from './permission-rule.js';
import { protectedComponent } from './protected-paths.js';

const MEMORY_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit']);

/**
 * Whether the call writes a file inside `memoryDir`: a Write or Edit whose path, as given and
 * as its real location, lies below the folder, in no hidden folder or file and no protected
 * name (`.git`, `.mcp.json`, `AGENTS.md`: what other tools read stays protected even there). A
 * folder that is not its own real location (a symlink to `~/.ssh` in a cloned repository, say)
 * grants nothing.
 */
export async function isMemoryWrite(target: PermissionTarget, memoryDir: string): Promise<boolean> {
  if (!MEMORY_TOOLS.has(target.toolName) || target.subject === undefined) return false;
  const requested = path.resolve(target.cwd, target.subject);
  if (!isBelow(requested, memoryDir)) return false;
  const [real, realFolder] = await Promise.all([
    canonicalLocation(requested),
    canonicalLocation(memoryDir),
  ]);
  if (real === undefined || realFolder !== path.resolve(memoryDir)) return false;
  return isBelow(real, realFolder);
}

/** Strictly below `dir` (not the folder itself), through plain, unprotected names only. */
function isBelow(file: string, dir: string): boolean {
  if (file === dir || !isInside(file, dir)) return false;
  const relative = path.relative(dir, file);
  const hidden = relative.split(path.sep).some((segment) => segment.startsWith('.'));
  return !hidden && protectedComponent(relative) === undefined;
}
