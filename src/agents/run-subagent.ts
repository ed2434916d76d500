// Runs one sub-agent for an Agent or delegate call: take a slot, run the loop again with the
// child's context, pass its events up, and hand the parent only its checked final text (or end
// the whole run, for a failure that must not be recovered from).

import type { RunResult } from '../core/events.js';
import { FatalToolError, type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { agentLoop } from '../loop/agent-loop.js';
import { messageOf } from '../model/retry-policy.js';
import { type AgentServers, startAgentServers, withAgentServerTools } from './agent-mcp-servers.js';
import { childTools } from './child-tools.js';
import { handOff } from './hand-off.js';
import {
  createSubagentContext,
  firstPrompt,
  type Spawner,
  type SubagentOptions,
  type SubagentRequest,
} from './subagent-context.js';

export async function runSubagent(
  spawner: Spawner,
  request: SubagentRequest,
  ctx: SpawnToolContext,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const type = request.definition.name;
  if (ctx.agent.depth >= runtime.maxDepth) {
    return toolError(
      `Sub-agents may nest ${runtime.maxDepth} levels deep; this one would be deeper.`,
    );
  }
  return runtime.slots.lendWhile(ctx.agent.agentId, ctx.signal, async () => {
    let options: SubagentOptions;
    try {
      options = await createSubagentContext(spawner, request, ctx);
    } catch (error) {
      return toolError(`The ${type} agent could not start: ${messageOf(error)}`);
    }
    await runtime.slots.acquire(options.agentId, ctx.signal);
    let servers: AgentServers | undefined;
    try {
      servers = await startOwnServers(spawner, request, ctx, options);
      let result: RunResult | undefined;
      for await (const event of agentLoop({ prompt: firstPrompt(request), options })) {
        ctx.emit(event);
        if (event.type === 'result' && event.agentId === options.agentId) result = event;
      }
      // The parent is being cancelled too: let its loop see that, not a child failure.
      ctx.run.cancelSignal.throwIfAborted();
      const ended = result!;
      if (ended.fatal) throw new FatalToolError(`${type} agent: ${ended.error}`);
      if (request.definition.onFailure === 'fatal' && failed(ended)) {
        throw new FatalToolError(
          `${type} agent at ${options.agentPath} (${ended.agentId}) ${ended.status === 'failed' ? 'failed' : `stopped early (${ended.status})`}, and its definition makes any failure fatal (onFailure: fatal): ${ended.error}`,
        );
      }
      const handed = await handOff(ended, runtime, ctx.signal);
      const ref = { agentId: ended.agentId, parentId: ended.parentId, depth: ended.depth };
      for (const message of handed.warnings) ctx.emit({ ...ref, type: 'warning', message });
      return handed.output;
    } finally {
      // However the child ended (done, failed, cancelled, out of budget): its servers stop now.
      await servers?.close();
      runtime.slots.release(options.agentId);
    }
  });
}

/**
 * Starts the child's own MCP servers and adds their tools, and those of servers it names, to
 * its list. Its definition's deny list and read-only rule still apply to them; its allow list
 * does not: declaring a server is what grants its tools.
 */
async function startOwnServers(
  spawner: Spawner,
  request: SubagentRequest,
  ctx: SpawnToolContext,
  options: SubagentOptions,
): Promise<AgentServers | undefined> {
  const { definition } = request;
  if (!definition.mcpServers?.length) return undefined;
  const servers = await startAgentServers({
    definition,
    parentTools: ctx.run.tools,
    cwd: options.cwd ?? ctx.cwd,
    signal: ctx.signal,
    settings: spawner.runtime.mcp,
  });
  const child = {
    agentId: options.agentId,
    parentId: ctx.agent.agentId,
    depth: ctx.agent.depth + 1,
  };
  // A child cancelled while its servers started needs no word on each: it is cancelled.
  if (!ctx.signal.aborted) {
    for (const message of servers.warnings) ctx.emit({ ...child, type: 'warning', message });
  }
  const granted = childTools(servers.tools, { ...definition, tools: undefined }).tools;
  options.tools = withAgentServerTools(options.tools ?? [], granted);
  // A forked child must see its own servers' tools too, at the price of its parent's cache.
  if (options.shownTools) options.shownTools = withAgentServerTools(options.shownTools, granted);
  return servers;
}

/** Not completed, and not because its parent is being cancelled. */
function failed(result: RunResult): boolean {
  return result.status !== 'completed' && result.status !== 'cancelled';
}
