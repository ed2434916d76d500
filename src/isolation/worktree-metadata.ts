// What warren remembers of an agent worktree beyond git's own records: whose it is, what it was
// for, where it branched from, and which process runs in it. Kept in the worktree's entry in
// the git directory, so it goes away with the worktree, whoever removes it.
import { readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { readRegularText } from '../core/regular-file.js';

const FILE_NAME = 'warren-agent.json';

const metadataSchema = z.object({
  agentId: z.string(),
  parentId: z.string().nullable(),
  agentType: z.string(),
  description: z.string(),
  /** The ref it branched from as asked (`HEAD`, `main`, …) and the commit that meant. */
  baseRef: z.string(),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  createdAt: z.string(),
  /** The process that runs the agent, to tell a live lock from one a crashed run left. */
  pid: z.number().int(),
  hostname: z.string(),
});

export type WorktreeMetadata = z.infer<typeof metadataSchema>;

export function newMetadata(
  fields: Omit<WorktreeMetadata, 'createdAt' | 'pid' | 'hostname'>,
): WorktreeMetadata {
  return { ...fields, createdAt: new Date().toISOString(), pid: process.pid, hostname: hostname() };
}

/**
 * The worktree's entry in the git directory (`.git/worktrees/<name>`): named in the `.git` file
 * inside the worktree, or, when the directory is gone, found by the `gitdir` file pointing at it.
 */
export async function adminDirOf(commonDir: string, worktree: string): Promise<string | undefined> {
  const pointer = await readSmall(path.join(worktree, '.git')).catch(() => undefined);
  const named = pointer === undefined ? undefined : /^gitdir: (.+)$/m.exec(pointer)?.[1]?.trim();
  if (named !== undefined) return path.resolve(worktree, named);
  const entries = path.join(commonDir, 'worktrees');
  for (const name of await readdir(entries).catch(() => [] as string[])) {
    const gitdir = await readSmall(path.join(entries, name, 'gitdir')).catch(() => '');
    if (path.dirname(gitdir.trim()) === worktree) return path.join(entries, name);
  }
  return undefined;
}

/** A pointer or metadata file is a line or two; nothing else is waited on or read whole. */
function readSmall(file: string): Promise<string> {
  return readRegularText(file, { maxBytes: 64 * 1024 });
}

export async function writeMetadata(adminDir: string, metadata: WorktreeMetadata): Promise<void> {
  await writeFile(path.join(adminDir, FILE_NAME), `${JSON.stringify(metadata, null, 2)}\n`);
}

/** The metadata, or undefined when there is none or it is not what warren wrote. */
export async function readMetadata(
  adminDir: string | undefined,
): Promise<WorktreeMetadata | undefined> {
  if (adminDir === undefined) return undefined;
  const text = await readSmall(path.join(adminDir, FILE_NAME)).catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = metadataSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that made the worktree still runs. A different host cannot be checked, so
 * it counts as alive: a worktree is never taken from under an agent that may be running.
 */
export function isOwnerAlive(metadata: WorktreeMetadata): boolean {
  if (metadata.hostname !== hostname()) return true;
  try {
    process.kill(metadata.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
