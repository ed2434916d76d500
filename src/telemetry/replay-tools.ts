// `--replay-tools`: tools that answer with the results a cassette recorded instead of running,
// so a replayed run touches no file and starts no process. Tools that start agents still run:
// their children replay from the cassette too.
import type { Tool } from '../core/tool.js';
import type { Cassette } from './cassette.js';
import { ReplayMismatchError } from './replay-model.js';

export function replayTools(tools: readonly Tool[], cassette: Cassette): Tool[] {
  return tools.map((tool): Tool => {
    if (tool.spawnsAgents) return tool;
    return {
      ...tool,
      async call(_input, ctx) {
        const recorded = cassette.toolResult(ctx.agent.path, ctx.toolCallId);
        if (!recorded) {
          throw new ReplayMismatchError(
            ctx.agent.path,
            undefined,
            `no recorded result for ${tool.name} call ${ctx.toolCallId}`,
          );
        }
        return { output: recorded.output, isError: recorded.isError };
      },
    };
  });
}
