// The bubblewrap command line for one command: the whole file system read-only, a private /tmp,
// the command's writable folders bound back writable with what runs code inside them kept
// read-only, its own PID namespace (so nothing it starts outlives it) and no network by default.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkoutGrants, otherRefs, worktreeGrants } from './git-metadata.js';

export interface BwrapPlan {
  command: string;
  cwd: string;
  writableDirs: readonly string[];
  network: 'none' | 'allow';
}

/**
 * Names inside a writable folder that stay read-only: what git, warren and other agent tools
 * read as configuration that runs code or widens what an agent may do, so that a command cannot
 * plant something that acts on the next `git status` or the next run.
 */
const KEPT_READ_ONLY = [
  '.git/config',
  '.git/hooks',
  '.git/info',
  '.warren',
  '.claude',
  '.codex',
  '.gemini',
  '.opencode',
  '.mcp.json',
  'opencode.json',
  'opencode.jsonc',
  '.vscode',
  '.idea',
];

const TMP = '/tmp';

/** bwrap's arguments, up to and including `bash -c <command>`. */
export function bwrapArguments(plan: BwrapPlan): string[] {
  // A folder that is not there yet (an agent's memory before its first note) cannot be bound.
  const writable = unique(plan.writableDirs.map(real)).filter(isDirectory);
  const cwd = real(plan.cwd);
  // Git metadata for the checkout the command works in, and only that one: a writable folder
  // elsewhere (an agent's memory inside the user's checkout) earns no say over its repository.
  const grants = writable.some((dir) => cwd === dir || cwd.startsWith(`${dir}/`))
    ? [checkoutGrants(cwd)]
    : [];
  const grantedDirs = grants.flatMap((grant) => grant.writable);
  const readOnlyInside = [
    ...writable.flatMap((dir) => KEPT_READ_ONLY.map((name) => path.join(dir, name))),
    ...grants.flatMap((grant) => grant.readOnly),
  ].filter((file) => existsSync(file));
  // Other branches in the folder of the worktree's own: git may write its ref, never theirs.
  readOnlyInside.push(...grants.flatMap(otherRefs));
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc'];
  if (plan.network === 'none') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', TMP);
  // The private /tmp hides the host's; what the command works on, and the repository it belongs
  // to, are shown again (read-only) when they live there.
  for (const dir of outermost([cwd, ...writable, ...grantedDirs].filter(isUnderTmp))) {
    const root = repositoryRootOf(dir) ?? dir;
    args.push('--ro-bind', root, root);
  }
  for (const dir of [...writable, ...grantedDirs]) args.push('--bind', dir, dir);
  for (const file of readOnlyInside) args.push('--ro-bind', file, file);
  // A writable folder inside a kept one (an agent's memory under .warren/) is bound again.
  for (const dir of [...writable, ...grantedDirs]) {
    if (readOnlyInside.some((file) => dir.startsWith(`${file}/`))) args.push('--bind', dir, dir);
  }
  args.push('--chdir', cwd, '--', 'bash', '-c', plan.command);
  return args;
}

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function isDirectory(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function unique(dirs: readonly string[]): string[] {
  return [...new Set(dirs)];
}

function isUnderTmp(dir: string): boolean {
  return dir === TMP || dir.startsWith(`${TMP}/`);
}

/** `dirs` without those inside another of them. */
function outermost(dirs: readonly string[]): string[] {
  const sorted = unique(dirs).sort((a, b) => a.length - b.length);
  return sorted.filter(
    (dir, index) => !sorted.slice(0, index).some((outer) => dir.startsWith(`${outer}/`)),
  );
}

/** The nearest folder at or above `dir` that holds `.git`: the checkout a worktree belongs to. */
function repositoryRootOf(dir: string): string | undefined {
  for (let at = dir; isUnderTmp(at) && at !== TMP; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git')) && !isLinkedWorktree(at)) return at;
  }
  return undefined;
}

function isLinkedWorktree(dir: string): boolean {
  return worktreeGrants(dir).writable.length > 0;
}
