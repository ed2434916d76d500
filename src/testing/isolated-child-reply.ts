// The reply of a main agent that starts one child in a worktree of its own, for CLI tests of
// worktree isolation against the loopback model server.
import type { MockReply } from './mock-llm/mock-reply.js';

/** An `Agent` call with `isolation: "worktree"` that asks the child to improve notes.txt. */
export function isolatedChildReply(): MockReply {
  return {
    toolCalls: [
      {
        name: 'Agent',
        input: {
          description: 'improve notes',
          prompt: 'Improve notes.txt.',
          isolation: 'worktree',
        },
      },
    ],
  };
}
