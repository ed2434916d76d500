// The folders a project's own files (.mcp.json, agent folders, AGENTS.md) are read from: the
// working folder and each one above it up to the top of its git repository, nearest first. Outside
// a repository, the working folder alone. One function, so every loader agrees on "the project".
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { findGitRepository } from './git-repository.js';

/** `cwd` (real path), then its parents up to the repository's top, nearest first. */
export function projectFolders(cwd: string): string[] {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    dir = path.resolve(cwd);
  }
  const top = findGitRepository(dir)?.top;
  if (top === undefined) return [dir];
  const folders = [dir];
  while (dir !== top && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
    folders.push(dir);
  }
  return folders;
}
