// `--replay-tools`: tools that answer with the results a cassette recorded instead of running,
// so a replayed run touches no file, starts no process and needs no MCP server. Tools that start
// agents still run: their children replay from the cassette too. MCP tools are made from what the
// recorded requests offered the model (name, description, schema), so no server is started.
import { z } from 'zod';
import { defineTool, type PlainTool, type Tool, type ToolContext } from '../core/tool.js';
import type { Cassette } from './cassette.js';
import { ReplayMismatchError } from './replay-model.js';

export function replayTools(tools: readonly Tool[], cassette: Cassette): Tool[] {
  return tools.map((tool): Tool => {
    if (tool.spawnsAgents) return tool;
    return { ...tool, call: (_input, ctx) => recordedResult(cassette, tool.name, ctx) };
  });
}

/**
 * The session's MCP tools as the recording's first request of the main agent offered them,
 * answering from the cassette. Read-only to the permission check: what the recorded run decided
 * (a denial too) is in the recorded result.
 */
export function replayedMcpTools(cassette: Cassette): PlainTool[] {
  const offered = cassette.modelCall('main', 1)?.request.tools ?? [];
  return offered.flatMap((offer) => {
    if (offer.type !== 'function' || !offer.name.startsWith('mcp__')) return [];
    const [server = '', ...rest] = offer.name.slice('mcp__'.length).split('__');
    const tool = defineTool({
      name: offer.name,
      description: offer.description ?? '',
      inputSchema: z.record(z.string(), z.unknown()),
      jsonSchema: offer.inputSchema as Record<string, unknown>,
      isReadOnly: true,
      isConcurrencySafe: true,
      call: (_input, ctx) => recordedResult(cassette, offer.name, ctx),
    });
    return [Object.assign(tool, { mcpServer: server, mcpToolName: rest.join('__') })];
  });
}

async function recordedResult(cassette: Cassette, name: string, ctx: ToolContext) {
  const recorded = cassette.toolResult(ctx.agent.path, ctx.toolCallId);
  if (!recorded) {
    throw new ReplayMismatchError(
      ctx.agent.path,
      undefined,
      `no recorded result for ${name} call ${ctx.toolCallId}`,
    );
  }
  return { output: recorded.output, isError: recorded.isError };
}
