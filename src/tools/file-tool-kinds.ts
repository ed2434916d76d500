// The three kinds of file tool, and what each kind means to the loop and to permission rules:
// whether it changes anything, whether it may run alongside other calls, which path rules match.
import type { ToolContext } from '../core/tool.js';
import { permissionPath } from './allowed-path.js';

type Cwd = Pick<ToolContext, 'cwd'>;

/** Read: reads the one file it names, alongside any other read. */
export const readsOneFile = {
  isReadOnly: true,
  isConcurrencySafe: true,
  permissionSubject: namedFile,
} as const;

/**
 * Write and Edit: change the one file they name, never alongside another call, whose reads or
 * writes could interleave with the change.
 */
export const changesOneFile = {
  isReadOnly: false,
  isConcurrencySafe: false,
  permissionSubject: namedFile,
} as const;

/** Glob and Grep: read under the directory (or file) they are given, alongside any other read. */
export const searchesUnderPath = {
  isReadOnly: true,
  isConcurrencySafe: true,
  permissionSubject: searchRoot,
} as const;

/** A rule such as `Edit(src/**)` matches the file the call names. */
function namedFile(input: { file_path: string }, ctx: Cwd): string {
  return permissionPath(input.file_path, ctx.cwd);
}

/** A rule such as `Grep(src/**)` matches where the search runs (the working directory if unset). */
function searchRoot(input: { path?: string | undefined }, ctx: Cwd): string {
  return permissionPath(input.path ?? '.', ctx.cwd);
}
