// The edge of an isolated agent's world: its worktree, and the checkouts it must not reach. Says
// whether a file tool's path crosses into them and why, naming the file's place in the worktree.
import { homedir } from 'node:os';
import path from 'node:path';
import { isInside, realDir } from '../tools/allowed-path.js';
import type { AgentWorktree } from './create-worktree.js';
import { WORKTREES_DIR } from './worktree-names.js';

export interface WorktreeBoundary {
  /** The agent's worktree, as a real path. */
  worktree: string;
  branch: string;
  /** The main checkout, where `.warren/worktrees/` is. */
  root: string;
  /** Real paths the agent must not reach: the main checkout, its parent's checkout, the git dir. */
  protectedDirs: readonly string[];
}

export function boundaryOf(worktree: AgentWorktree): WorktreeBoundary {
  const { repository } = worktree;
  return {
    worktree: worktree.path,
    branch: worktree.branch,
    root: repository.root,
    protectedDirs: [...new Set([repository.root, repository.toplevel, repository.commonDir])],
  };
}

/** File tools and the input fields that name where they reach. */
const PATH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Read: ['file_path'],
  Write: ['file_path'],
  Edit: ['file_path'],
  Glob: ['path', 'pattern'],
  Grep: ['path'],
};

/**
 * Why a file tool call reaches past the worktree into a protected checkout, or undefined. Paths
 * elsewhere are left to the tool's own allowed-directory check.
 */
export async function fileCrossing(
  toolName: string,
  input: unknown,
  cwd: string,
  boundary: WorktreeBoundary,
): Promise<string | undefined> {
  const fields = PATH_FIELDS[toolName] ?? [];
  for (const field of fields) {
    const value =
      typeof input === 'object' && input !== null
        ? (input as Record<string, unknown>)[field]
        : undefined;
    if (typeof value !== 'string' || value.includes('\0')) continue;
    // A pattern reaches only as far as its fixed leading folders; a relative one stays under path.
    const given = field === 'pattern' ? fixedPrefix(value) : value;
    if (given === undefined) continue;
    const crossing = await pathCrossing(given, cwd, boundary);
    if (crossing !== undefined) return crossing;
  }
  return undefined;
}

async function pathCrossing(
  given: string,
  cwd: string,
  boundary: WorktreeBoundary,
): Promise<string | undefined> {
  const expanded = given === '~' || given.startsWith('~/') ? homedir() + given.slice(1) : given;
  const requested = path.resolve(cwd, expanded);
  const real = await realDir(requested);
  if (isInside(real, boundary.worktree)) return undefined;
  const checkout = boundary.protectedDirs.find((dir) => isInside(real, dir));
  if (checkout === undefined) return undefined;
  const via = real === requested ? '' : ` (it resolves through a symlink to ${real})`;
  return `${given} is ${placeOf(real, boundary)}${via}, outside this agent's worktree. ${confinement(boundary)}${counterpart(real, checkout, boundary)}`;
}

/** The folders of an absolute glob before its first wildcard; undefined for a relative glob. */
function fixedPrefix(pattern: string): string | undefined {
  if (!path.isAbsolute(pattern)) return undefined;
  const segments = pattern.split('/');
  const fixed = segments.findIndex((segment) => /[*?[{]/.test(segment));
  return fixed === -1 ? pattern : segments.slice(0, fixed).join('/') || '/';
}

/** Where a protected path is, in words. */
function placeOf(real: string, boundary: WorktreeBoundary): string {
  const worktrees = path.join(boundary.root, WORKTREES_DIR);
  if (isInside(real, worktrees)) return "in another agent's worktree";
  if (!isInside(real, boundary.root) || real.split(path.sep).includes('.git')) {
    return "in the repository's git directory";
  }
  return `in the main checkout (${boundary.root})`;
}

/** What the agent is told about where it may work. */
export function confinement(boundary: WorktreeBoundary): string {
  return `This agent works in its own git worktree, ${boundary.worktree} (branch ${boundary.branch}), and may only touch files there.`;
}

/** The same file inside the worktree, when the path is a checkout's file. */
function counterpart(real: string, checkout: string, boundary: WorktreeBoundary): string {
  const relative = path.relative(checkout, real);
  if (
    relative === '' ||
    relative.split(path.sep)[0] === '.git' ||
    isInside(real, path.join(boundary.root, WORKTREES_DIR))
  ) {
    return '';
  }
  return ` Its counterpart in the worktree is ${path.join(boundary.worktree, relative)}.`;
}
