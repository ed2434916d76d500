// A child's own git worktree around its run: made before it starts (its cwd, allowed directories,
// permission edge, prompt note) or taken up again by a restart after a crash, and finished when
// it ends, however it ends, with the note its parent reads and the events the agent tree reports.

import { statSync } from 'node:fs';
import path from 'node:path';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, AgentRef, WorktreeReport } from '../core/events.js';
import type { PermissionPolicy } from '../core/permission-policy.js';
import { confineToWorktree } from '../isolation/confine-to-worktree.js';
import { type AgentWorktree, createWorktree } from '../isolation/create-worktree.js';
import { finishWorktree, type WorktreeOutcome } from '../isolation/finish-worktree.js';
import { reopenWorktree } from '../isolation/reopen-worktree.js';
import { boundaryOf } from '../isolation/worktree-boundary.js';
import { isInside, realDir } from '../tools/allowed-path.js';

/** Where a child in its own worktree works, and what binds it there. */
export interface ChildWorkspace {
  worktree: AgentWorktree;
  /** The parent's cwd, the same place in the worktree (its root if that place is not there). */
  cwd: string;
  /** The parent's allowed directories inside its checkout, moved into the worktree. */
  allowedDirs: string[];
  /** The child's policy with the worktree's edge in front. */
  confine(policy: PermissionPolicy | undefined): PermissionPolicy;
  /** Appended to the child's system prompt: where it is, what it lacks, what happens after. */
  promptNote: string;
}

/** How many of the parent's uncommitted paths the child's prompt names. */
const LEFT_BEHIND_SHOWN = 10;

export type OpenedWorktree =
  | { ok: true; workspace: ChildWorkspace }
  | { ok: false; message: string };

/**
 * Makes the child's worktree from where its parent works. A failure is a message for the parent
 * model (the call's error result), never a throw: the parent goes on without it.
 */
export async function openChildWorktree(params: {
  agentId: string;
  parent: { cwd: string; allowedDirs: readonly string[]; agentId: string };
  agentType: string;
  description: string;
  base: string | undefined;
}): Promise<OpenedWorktree> {
  let worktree: AgentWorktree;
  try {
    worktree = await createWorktree({
      cwd: params.parent.cwd,
      agentId: params.agentId,
      parentId: params.parent.agentId,
      agentType: params.agentType,
      description: params.description,
      base: params.base,
    });
  } catch (error) {
    return {
      ok: false,
      message: `The ${params.agentType} agent was not started: isolation: "worktree" needs a git worktree, and git could not make one. ${reasonOf(error)}. Call Agent without isolation to run it in your directory, or fix the repository first.`,
    };
  }
  return { ok: true, workspace: await workspaceIn(worktree, params.parent) };
}

/**
 * The worktree a background child worked in before a crash, taken up again for its restart
 * (`--resume`), bound as when it was made. A worktree that is gone or no longer valid is a
 * message naming it, never a throw.
 */
export async function reopenChildWorktree(params: {
  worktreePath: string;
  agentId: string;
  parent: { cwd: string; allowedDirs: readonly string[] };
}): Promise<OpenedWorktree> {
  try {
    const worktree = await reopenWorktree({
      cwd: params.parent.cwd,
      agentId: params.agentId,
      path: params.worktreePath,
    });
    return { ok: true, workspace: await workspaceIn(worktree, params.parent) };
  } catch (error) {
    return { ok: false, message: reasonOf(error) };
  }
}

/** The child's place in `worktree`: its parent's cwd and allowed directories moved into it. */
async function workspaceIn(
  worktree: AgentWorktree,
  parent: { cwd: string; allowedDirs: readonly string[] },
): Promise<ChildWorkspace> {
  const into = async (dir: string) => {
    const real = await realDir(dir);
    const { toplevel } = worktree.repository;
    return isInside(real, toplevel)
      ? path.join(worktree.path, path.relative(toplevel, real))
      : undefined;
  };
  const mappedCwd = await into(parent.cwd);
  const cwd = mappedCwd !== undefined && isDirectory(mappedCwd) ? mappedCwd : worktree.path;
  const mapped = await Promise.all(parent.allowedDirs.map(into));
  const allowedDirs = mapped.filter((dir): dir is string => dir !== undefined);
  if (!allowedDirs.some((dir) => isInside(cwd, dir))) allowedDirs.unshift(cwd);
  return childWorkspaceOf({ worktree, cwd, allowedDirs });
}

/**
 * The workspace from its data alone: what `openChildWorktree` made, or a copy of it kept as
 * JSON (a remote child's journaled worktree, on its worker).
 */
export function childWorkspaceOf(
  made: Pick<ChildWorkspace, 'worktree' | 'cwd' | 'allowedDirs'>,
): ChildWorkspace {
  const boundary = boundaryOf(made.worktree);
  return {
    worktree: made.worktree,
    cwd: made.cwd,
    allowedDirs: made.allowedDirs,
    confine: (policy) => confineToWorktree(policy, boundary),
    promptNote: promptNote(made.worktree),
  };
}

function promptNote(worktree: AgentWorktree): string {
  const base = worktree.baseCommit.slice(0, 12);
  const from =
    worktree.baseRef === 'HEAD' ? `your parent's HEAD (${base})` : `${worktree.baseRef} (${base})`;
  const lines = [
    'Your git worktree:',
    `- You work in your own git worktree, ${worktree.path}, on branch ${worktree.branch}, checked out from ${from}. Your file tools and shell are confined to it: paths into the main checkout (${worktree.repository.root}) are refused, and commands that leave the worktree need a person's permission (without one, they are not run).`,
    `- It holds the files as they were committed at ${base}. Uncommitted changes in your parent's checkout are not in it.${leftBehindNote(worktree.leftBehind)}`,
  ];
  if (worktree.hasSubmodules) {
    lines.push('- Submodules are not checked out in it (their folders are empty).');
  }
  lines.push(
    `- When you finish, what you changed is committed to ${worktree.branch} (commit as you go if you like) and the worktree is kept for review; if you changed nothing, it is removed.`,
  );
  return lines.join('\n');
}

function leftBehindNote(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const shown = paths.slice(0, LEFT_BEHIND_SHOWN).join(', ');
  const more =
    paths.length > LEFT_BEHIND_SHOWN ? `, and ${paths.length - LEFT_BEHIND_SHOWN} more` : '';
  return ` Your parent has uncommitted changes in ${paths.length} ${paths.length === 1 ? 'path' : 'paths'} (${shown}${more}): you see the committed versions, or nothing for new files.`;
}

/**
 * A sink that reports the worktree right after the child's own `run_start`. That report is made
 * outside the child's loop: it goes to `record` (the run's `onEvent`) too, as the loop's own do.
 */
export function announcingWorktree(
  sink: (event: AgentEvent) => void,
  workspace: ChildWorkspace,
  ref: AgentRef,
  record: ((event: AgentEvent) => void) | undefined,
): (event: AgentEvent) => void {
  return (event) => {
    sink(event);
    if (event.type === 'run_start' && event.agentId === ref.agentId) {
      const created = worktreeEvent(ref, {
        action: 'created',
        changed: false,
        diffStat: '',
        ...placeOf(workspace),
      });
      record?.(created);
      sink(created);
    }
  };
}

/**
 * Ends the child's worktree once the child has ended (completed, failed, cancelled, stopped):
 * removed when unchanged, else committed and kept. Reports it to `sink` and returns the note
 * for the parent, to go at the end of its tool result or task notification. Never throws.
 */
export async function finishChildWorktree(
  workspace: ChildWorkspace,
  ref: AgentRef,
  about: { description: string },
  sink: (event: AgentEvent) => void,
): Promise<{ outcome: WorktreeOutcome; note: string }> {
  const outcome = await finishWorktree(workspace.worktree, about);
  sink(
    worktreeEvent(ref, {
      action: outcome.kept ? 'kept' : 'removed',
      changed: outcome.changed,
      diffStat: outcome.diffStat,
      ...placeOf(workspace),
    }),
  );
  return { outcome, note: worktreeNote(outcome, workspace.worktree) };
}

/** What the parent model reads about the worktree, after the child's own report. */
function worktreeNote(outcome: WorktreeOutcome, worktree: AgentWorktree): string {
  const { agentId, path: where, branch } = outcome;
  if (!outcome.kept) return `[Worktree removed: the agent changed nothing in ${where}.]`;
  const problem = outcome.problem ? ` Note: ${outcome.problem}.` : '';
  if (!outcome.changed) return `[Worktree kept at ${where} (branch ${branch}).${problem}]`;
  const committed = outcome.commit
    ? ` (what it left uncommitted was committed as ${outcome.commit.slice(0, 12)})`
    : '';
  const stat = outcome.diffStat ? `\n${outcome.diffStat}\n` : ' ';
  return `[Worktree kept: the agent's changes are on branch ${branch}, in ${where}${committed}.${problem}${stat}Review them with \`git diff ${worktree.baseCommit.slice(0, 12)} ${branch}\`; take them with \`git merge ${branch}\` or \`warren worktrees merge ${agentId}\`; discard them with \`warren worktrees remove ${agentId} --force\`.]`;
}

function worktreeEvent(ref: AgentRef, report: WorktreeReport): AgentEvent {
  return { ...ref, type: 'worktree', ...report };
}

function placeOf(workspace: ChildWorkspace): { path: string; branch: string } {
  return { path: workspace.worktree.path, branch: workspace.worktree.branch };
}

function isDirectory(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The failure as the end of a sentence: its own full stop dropped. */
function reasonOf(error: unknown): string {
  return messageOf(error).replace(/[.\s]+$/, '');
}
