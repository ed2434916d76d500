// `--continue`: which session is "the latest of this directory". A session belongs to the
// directory its main agent first ran in (the `cwd` of the first `run_start` record of its main
// transcript); the latest is the one whose main transcript was written last (its modification
// time, i.e. its last line), so a session resumed yesterday beats one started this morning.
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { isSafeId } from './session-paths.js';

/** Enough of a transcript's start to hold its first records; `run_start` is the first line. */
const HEAD_BYTES = 64 * 1024;

export interface FindLatestSessionOptions {
  sessionDir: string;
  /** The directory the session must belong to. */
  cwd: string;
  /** What asked, for the error message (default `--continue`). */
  where?: string;
  /** What to do instead, for the error message. */
  fix?: string;
}

/** The id of the latest session of `cwd`, or a ConfigError that says there is none and what to do. */
export function findLatestSession(options: FindLatestSessionOptions): string {
  const cwd = realPath(options.cwd);
  const candidates = mainTranscripts(options.sessionDir).sort(
    (a, b) => b.mtimeMs - a.mtimeMs || b.id.localeCompare(a.id),
  );
  const latest = candidates.find((candidate) => sessionDirectory(candidate.path) === cwd);
  if (latest !== undefined) return latest.id;
  throw new ConfigError(
    options.where ?? '--continue',
    `no session of ${cwd} in ${options.sessionDir}`,
    options.fix ??
      'start one with warren -p "<prompt>" in this directory, pass --session-dir if its sessions are kept elsewhere, or --resume <session-id> to continue one from another directory',
  );
}

export interface MainTranscript {
  id: string;
  path: string;
  mtimeMs: number;
}

/** Every session's main transcript in `sessionDir`, in no order. */
export function mainTranscripts(sessionDir: string): MainTranscript[] {
  let names: string[];
  try {
    names = readdirSync(sessionDir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const id = name.slice(0, -'.jsonl'.length);
    if (!name.endsWith('.jsonl') || !isSafeId(id)) return [];
    const path = join(sessionDir, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats?.isFile() ? [{ id, path, mtimeMs: stats.mtimeMs }] : [];
  });
}

/** The `cwd` of the first `run_start` record near the file's start; undefined when none. */
function sessionDirectory(path: string): string | undefined {
  const cwd = headRecords(path).find(
    (record) => record.type === 'run_start' && record.depth === 0 && typeof record.cwd === 'string',
  )?.cwd;
  return typeof cwd === 'string' ? realPath(cwd) : undefined;
}

/** The records that parse among the first 64 KiB of a transcript (a line cut there does not). */
export function headRecords(path: string): Record<string, unknown>[] {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  return head.split('\n').flatMap((line) => {
    try {
      const record: unknown = JSON.parse(line);
      return typeof record === 'object' && record !== null
        ? [record as Record<string, unknown>]
        : [];
    } catch {
      return [];
    }
  });
}

function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
