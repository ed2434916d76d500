// Makes sure a session folder can hold transcripts before a run starts, so a bad folder is one
// clear line (ConfigError) and not a crash mid-run. Folders are made one level at a time:
// node's recursive mkdir loops forever under /proc, where every level claims not to exist.
import { closeSync, mkdirSync, openSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { mainTranscriptPath } from './session-paths.js';

export interface PrepareSessionDirOptions {
  /** An absolute path. */
  sessionDir: string;
  sessionId: string;
  /** What set the folder, for the message: `--session-dir /x`, `the session folder /x`. */
  where: string;
}

/**
 * Creates the folder if need be and opens the session's main transcript for appending (creating
 * it empty), which proves it can be written. @throws ConfigError naming the folder and the fix.
 */
export function prepareSessionDir(options: PrepareSessionDirOptions): void {
  const { sessionDir, where } = options;
  makeDirectory(sessionDir, where);
  const transcript = mainTranscriptPath(sessionDir, options.sessionId);
  try {
    closeSync(openSync(transcript, 'a'));
  } catch (error) {
    throw new ConfigError(
      where,
      `cannot write a transcript there (${codeOf(error)})`,
      'give a folder you can write to',
    );
  }
}

function makeDirectory(path: string, where: string): void {
  const stat = statOf(path);
  if (stat?.isDirectory()) return;
  if (stat) {
    throw new ConfigError(
      where,
      `${path} is not a directory`,
      'give a folder, or a path to create one at',
    );
  }
  const parent = dirname(path);
  if (parent === path) throw new ConfigError(where, 'does not exist', 'give an existing folder');
  makeDirectory(parent, where);
  try {
    mkdirSync(path);
  } catch (error) {
    if (codeOf(error) === 'EEXIST' && statOf(path)?.isDirectory()) return;
    throw new ConfigError(
      where,
      `cannot create ${path} (${codeOf(error)})`,
      'give a folder you can write to',
    );
  }
}

/** Undefined when nothing is there, or a parent is not a folder (the caller finds which). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : String(error);
}
