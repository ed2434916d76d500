// The permission policy of an agent bound to a worktree: the policy it would have anyway, with
// the worktree's edge checked first. File tools are refused paths into the main checkout, with
// the reason; a shell command that leaves the worktree needs a person's yes every time, and is
// refused where no one can be asked (print mode).
import { messageOf } from '../core/error-message.js';
import type {
  PermissionDecision,
  PermissionPolicy,
  PermissionRequest,
} from '../core/permission-policy.js';
import { commandLeavesWorktree } from './command-leaves-worktree.js';
import { confinement, fileCrossing, type WorktreeBoundary } from './worktree-boundary.js';

const ALLOW: PermissionDecision = { behavior: 'allow' };

/** The policy each confined policy wraps, so a child with its own worktree swaps the edge. */
const unconfined = new WeakMap<PermissionPolicy, PermissionPolicy | undefined>();

/**
 * `policy` (none: everything else allowed) bound to `boundary`. A policy already bound to a
 * worktree is re-bound, not stacked: a nested agent with a worktree of its own leaves its
 * parent's. Derived policies (the agent's children) keep the edge.
 */
export function confineToWorktree(
  policy: PermissionPolicy | undefined,
  boundary: WorktreeBoundary,
): PermissionPolicy {
  const inner = policy !== undefined && unconfined.has(policy) ? unconfined.get(policy) : policy;
  const confined: PermissionPolicy = {
    decide: (request) =>
      decideAtEdge(inner, boundary, request).catch((error: unknown) => ({
        behavior: 'deny',
        message: `Permission to use ${request.tool.name} could not be checked (${messageOf(error)}), so it was not run.`,
      })),
    derive: (options) => confineToWorktree(inner?.derive ? inner.derive(options) : inner, boundary),
    ...(inner?.confirm ? { confirm: inner.confirm.bind(inner) } : {}),
  };
  unconfined.set(confined, inner);
  return confined;
}

async function decideAtEdge(
  inner: PermissionPolicy | undefined,
  boundary: WorktreeBoundary,
  request: PermissionRequest,
): Promise<PermissionDecision> {
  const crossing = await fileCrossing(request.tool.name, request.input, request.cwd, boundary);
  if (crossing !== undefined) {
    return {
      behavior: 'deny',
      message: `Refused: ${crossing}`,
      // For people: the first sentence says what and where; no rule or mode would allow it.
      notice: `${request.tool.name} was refused: ${crossing.split('. ')[0]!.replace("this agent's", "the agent's")}; agents in a worktree of their own never touch the main checkout.`,
    };
  }
  const command = shellCommandOf(request);
  const leaves =
    command === undefined
      ? undefined
      : await commandLeavesWorktree(command, {
          cwd: request.cwd,
          worktree: boundary.worktree,
          protectedDirs: boundary.protectedDirs,
        });
  if (leaves === undefined) return inner ? inner.decide(request) : ALLOW;
  const reason = `the command leaves the agent's git worktree ${boundary.worktree}: ${leaves}`;
  const answer = await inner?.confirm?.(request, reason);
  if (answer !== undefined) return answer;
  const call = `${request.tool.name}(${clip(command!)})`;
  return {
    behavior: 'deny',
    message: `${call} was not run: it leaves this agent's git worktree (${leaves}). ${confinement(boundary)} Leaving the worktree needs a person's permission, and no one can be asked in this run. Run git inside the worktree, without -C (its commits go to ${boundary.branch}), and use paths inside it.`,
    notice: `${call} was not run: it leaves the agent's git worktree ${boundary.worktree} (${leaves}); that needs a person's permission every time, which a run without prompts cannot give.`,
  };
}

/** The command of a Bash call (read-only Bash included); undefined for every other tool. */
function shellCommandOf(request: PermissionRequest): string | undefined {
  if (request.tool.name !== 'Bash') return undefined;
  const command = (request.input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
