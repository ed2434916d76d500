// `warren worktrees [list|diff|merge|remove|prune] [<agent-id>] [--json] [--force]`: the agent
// worktrees kept for review, and what a person does with them. Bad input is a ConfigError
// (exit 2); a merge git cannot do is exit 1 with what to do, and changes nothing.
import { diffWorktree } from '../../isolation/diff-worktree.js';
import { type ListedWorktree, listWorktrees } from '../../isolation/list-worktrees.js';
import { MergeError, mergeWorktree } from '../../isolation/merge-worktree.js';
import { pruneWorktrees, removeAgentWorktree } from '../../isolation/prune-worktrees.js';
import { GitError } from '../../isolation/run-git.js';
import { cwdFlag } from '../cwd-flag.js';
import type { WorktreesArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { textTable } from '../text-table.js';
import { changesOf } from './worktree-changes.js';

export async function runWorktreesCommand(args: WorktreesArgs, io: CliIo): Promise<number> {
  const cwd = cwdFlag(args);
  const print = (json: unknown, text: string) =>
    io.stdout(args.json ? `${JSON.stringify(json, null, 2)}\n` : text);
  try {
    switch (args.action) {
      case 'list': {
        const { repository, worktrees } = await listWorktrees(cwd);
        print(
          { repository: repository.root, worktrees: worktrees.map(worktreeJson) },
          formatList(repository.root, worktrees),
        );
        return 0;
      }
      case 'diff': {
        const diff = await diffWorktree(cwd, args.agentId!);
        const untracked = diff.untracked.map((file) => `new, not committed: ${file}\n`).join('');
        print(
          {
            ...worktreeJson(diff.worktree),
            base_commit: diff.base,
            stat: diff.stat,
            patch: diff.patch,
            untracked: diff.untracked,
          },
          diff.patch === '' && untracked === ''
            ? `${diff.worktree.branch} has no changes.\n`
            : `${diff.stat}\n\n${diff.patch}${untracked}`,
        );
        return 0;
      }
      case 'merge': {
        const merged = await mergeWorktree(cwd, args.agentId!);
        const stays = merged.present
          ? `\nThe worktree stays at ${merged.path}; remove it with \`warren worktrees remove ${merged.agentId}\`.\n`
          : '\n';
        print(
          {
            agent_id: merged.agentId,
            branch: merged.branch,
            into: merged.into,
            commit: merged.commit,
            diff_stat: merged.diffStat,
          },
          merged.commit === null
            ? `${merged.branch} is already merged into ${merged.into}; nothing to do.${stays}`
            : `Merged ${merged.branch} into ${merged.into} (${merged.commit.slice(0, 12)}).\n${merged.diffStat}\n${stays}`,
        );
        return 0;
      }
      case 'remove': {
        const removed = await removeAgentWorktree(cwd, args.agentId!, { force: args.force });
        print(
          { removed: worktreeJson(removed) },
          `Removed ${removed.agentId}: its worktree ${removed.path} and branch ${removed.branch}.\n`,
        );
        return 0;
      }
      case 'prune': {
        const { removed, kept } = await pruneWorktrees(cwd, { force: args.force });
        print(
          {
            removed: removed.map(worktreeJson),
            kept: kept.map(({ worktree, reason }) => ({ ...worktreeJson(worktree), reason })),
          },
          formatPrune(removed, kept),
        );
        return 0;
      }
    }
  } catch (error) {
    if (MergeError.isInstance(error) || GitError.isInstance(error)) {
      io.stderr(`warren: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function worktreeJson(worktree: ListedWorktree) {
  return {
    agent_id: worktree.agentId,
    agent_type: worktree.metadata?.agentType ?? null,
    description: worktree.metadata?.description ?? null,
    parent_id: worktree.metadata?.parentId ?? null,
    branch: worktree.branch,
    path: worktree.path,
    state: worktree.state,
    orphaned_because: worktree.orphanedBecause,
    present: worktree.present,
    changed: worktree.changed,
    merged: worktree.merged,
    base_commit: worktree.baseCommit,
    head: worktree.head,
    uncommitted: worktree.uncommitted,
    diff_stat: worktree.shortStat,
    created_at: worktree.createdAt?.toISOString() ?? null,
    age_ms: worktree.createdAt ? Date.now() - worktree.createdAt.getTime() : null,
  };
}

function formatList(root: string, worktrees: readonly ListedWorktree[]): string {
  if (worktrees.length === 0) return `No agent worktrees in ${root}.\n`;
  const rows = [
    ['AGENT', 'STATE', 'BRANCH', 'CHANGES', 'AGE', 'DESCRIPTION'],
    ...worktrees.map((worktree) => [
      worktree.agentId,
      worktree.state,
      worktree.branch,
      changesOf(worktree),
      worktree.createdAt ? age(Date.now() - worktree.createdAt.getTime()) : '-',
      worktree.metadata?.description ?? '',
    ]),
  ];
  const lines = textTable(rows);
  for (const worktree of worktrees) {
    if (worktree.orphanedBecause)
      lines.push(`  ${worktree.agentId} is orphaned: ${worktree.orphanedBecause}`);
  }
  lines.push(
    '',
    `${worktrees.length} in ${root}. Review one: warren worktrees diff <agent-id>; take it: warren worktrees merge <agent-id>; drop it: warren worktrees remove <agent-id>; drop all with nothing unmerged: warren worktrees prune.`,
  );
  return `${lines.join('\n')}\n`;
}

function age(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

function formatPrune(
  removed: readonly ListedWorktree[],
  kept: ReadonlyArray<{ worktree: ListedWorktree; reason: string }>,
): string {
  const lines = [
    removed.length === 0
      ? 'Removed none.'
      : `Removed ${removed.length}: ${removed.map((worktree) => worktree.agentId).join(', ')}.`,
  ];
  for (const { worktree, reason } of kept) lines.push(`Kept ${worktree.agentId}: ${reason}.`);
  if (kept.some(({ worktree }) => worktree.state !== 'running')) {
    lines.push('To discard changes that are not merged too: warren worktrees prune --force.');
  }
  return `${lines.join('\n')}\n`;
}
