// Where a child runs, from its call and its definition: in its parent's directory, in a git
// worktree of its own (`worktree`), on another machine (`remote`), or both of the last two.
import type { AgentDefinition } from '../definitions/agent-definition.js';

export interface Placement {
  isolation?: 'worktree';
  remote: boolean;
}

/** Either side may ask for a worktree or a remote run; a call adds to its definition, never takes away. */
export function placementOf(
  asked: 'worktree' | 'remote' | undefined,
  definition: Pick<AgentDefinition, 'isolation'>,
): Placement {
  const wants = new Set([asked, definition.isolation]);
  return {
    ...(wants.has('worktree') ? { isolation: 'worktree' as const } : {}),
    remote: wants.has('remote'),
  };
}
