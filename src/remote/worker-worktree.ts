// A remote child's own git worktree on its worker (its spec's `worktree`): made from its cwd and
// finished when it ends, each a journaled step, with the code a local child's worktree uses
// (agents/child-worktree.ts); and its steps refused on a worker that does not have it.
import { statSync } from 'node:fs';
import type { ChildRun } from '../agents/child-run.js';
import {
  type ChildWorkspace,
  childWorkspaceOf,
  openChildWorktree,
} from '../agents/child-worktree.js';
import type { RunResult, WorktreeReport } from '../core/events.js';
import type { StepRunner } from '../core/step-runner.js';
import type { CheckedChildSpec } from './child-spec-schema.js';

/** Runs a side effect of the worker's own as a journaled step (run/worker-child.ts). */
export type SideStep = <T>(name: string, work: () => Promise<T> | T) => Promise<T>;

/** What the journal keeps of the worktree made: JSON, enough to build its workspace again. */
type Made =
  | { ok: true; worktree: ChildWorkspace['worktree']; cwd: string; allowedDirs: string[] }
  | { ok: false; message: string };

/**
 * The child's worktree, made from its spec's cwd as a local child's is from its parent's. Made
 * once: a replay after a crash gets the journaled one back instead of making a second.
 */
export async function openWorkerWorktree(
  spec: CheckedChildSpec,
  side: SideStep,
): Promise<{ ok: true; workspace: ChildWorkspace } | { ok: false; message: string }> {
  const made = await side('open worktree', async (): Promise<Made> => {
    const opened = await openChildWorktree({
      agentId: spec.agentId,
      parent: { cwd: spec.cwd, allowedDirs: [spec.cwd], agentId: spec.parentId },
      agentType: spec.definition.name,
      description: spec.description,
      base: spec.worktree?.base,
    });
    if (!opened.ok) return opened;
    const { worktree, cwd, allowedDirs } = opened.workspace;
    return { ok: true, worktree, cwd, allowedDirs };
  });
  return made.ok ? { ok: true, workspace: childWorkspaceOf(made) } : made;
}

/**
 * The child's steps, each refused while its worktree is not on this worker: a replay on another
 * worker (after a crash) fails the child at its first step not in the journal, not earlier, so
 * the replay matches the journal up to there.
 */
export function stepsInWorktree(steps: StepRunner, workspace: ChildWorkspace): StepRunner {
  const where = workspace.worktree.path;
  return {
    run: (step, work) =>
      steps.run(step, async () => {
        if (!isDirectory(where)) throw new Error(missingWorktree(where));
        return work();
      }),
  };
}

/**
 * Finishes the worktree once the child has ended, however it ended (committed and kept when
 * changed, removed when not), as a journaled step, the way every child's is (ChildRun); the
 * result carries the reports and the note its parent reads, as a local child's parent does.
 */
export async function finishWorkerWorktree(
  child: ChildRun,
  side: SideStep,
  result: RunResult,
): Promise<RunResult> {
  const { path, branch } = child.workspace!.worktree;
  const finished = await side('finish worktree', async () => {
    if (!isDirectory(path)) {
      return { note: `[Worktree not finished: ${missingWorktree(path)}.]`, reports: [] };
    }
    const reports: WorktreeReport[] = [];
    const note = await child.finishWorktree((event) => {
      if (event.type !== 'worktree') return;
      const { type: _type, agentId: _agent, parentId: _parent, depth: _depth, ...report } = event;
      reports.push(report);
    });
    return { note, reports };
  });
  const created: WorktreeReport = { action: 'created', changed: false, diffStat: '', path, branch };
  return { ...result, worktree: { note: finished.note, reports: [created, ...finished.reports] } };
}

function missingWorktree(where: string): string {
  return `its git worktree ${where} is not on this worker (it was made on another worker, which this one took the child over from): a remote child with isolation "worktree" needs the repository at the same path on every worker (a shared filesystem), or a single worker`;
}

function isDirectory(dir: string): boolean {
  return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
}
