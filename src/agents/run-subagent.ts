// Runs one sub-agent for an Agent or delegate call: take a slot, make its worktree if it asked
// for one, run the loop again with the child's context, pass its events up, and hand the parent
// only its checked final text and what became of the worktree (or end the whole run, for a
// failure that must not be recovered from).

import type { AgentRef, RunResult } from '../core/events.js';
import { FatalToolError, type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { agentLoop } from '../loop/agent-loop.js';
import { messageOf } from '../model/retry-policy.js';
import { type AgentServers, startAgentServers, withAgentServerTools } from './agent-mcp-servers.js';
import { childTools } from './child-tools.js';
import {
  announcingWorktree,
  type ChildWorkspace,
  finishChildWorktree,
  openChildWorktree,
} from './child-worktree.js';
import { handOff } from './hand-off.js';
import {
  createSubagentContext,
  newAgentId,
  type Spawner,
  type SubagentOptions,
  type SubagentRequest,
  type SubagentStart,
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
    const agentId = newAgentId();
    await runtime.slots.acquire(agentId, ctx.signal);
    try {
      let workspace: ChildWorkspace | undefined;
      if (request.isolation === 'worktree') {
        const opened = await openChildWorktree({
          agentId,
          parent: { cwd: ctx.cwd, allowedDirs: ctx.allowedDirs, agentId: ctx.agent.agentId },
          agentType: type,
          description: request.description,
          base: request.worktreeBase,
        });
        if (!opened.ok) return toolError(opened.message);
        workspace = opened.workspace;
      }
      const ref: AgentRef = { agentId, parentId: ctx.agent.agentId, depth: ctx.agent.depth + 1 };
      let output: ToolOutput | undefined;
      try {
        output = await runChild(spawner, request, ctx, { agentId, workspace, ref });
      } finally {
        // However the child ended (a throw included), its worktree is finished, and the note
        // about it ends what the parent reads.
        if (workspace) {
          const { note } = await finishChildWorktree(workspace, ref, request, ctx.emit);
          if (output !== undefined) output = withNote(output, note);
        }
      }
      return output;
    } finally {
      runtime.slots.release(agentId);
    }
  });
}

async function runChild(
  spawner: Spawner,
  request: SubagentRequest,
  ctx: SpawnToolContext,
  placement: { agentId: string; workspace: ChildWorkspace | undefined; ref: AgentRef },
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const type = request.definition.name;
  let start: SubagentStart;
  try {
    start = await createSubagentContext(spawner, request, ctx, placement);
  } catch (error) {
    return toolError(`The ${type} agent could not start: ${messageOf(error)}`);
  }
  const { options, prompt } = start;
  for (const message of start.warnings) ctx.emit({ ...placement.ref, type: 'warning', message });
  const emit = placement.workspace
    ? announcingWorktree(ctx.emit, placement.workspace, placement.ref)
    : ctx.emit;
  let servers: AgentServers | undefined;
  try {
    servers = await startOwnServers(spawner, request, ctx, options);
    let result: RunResult | undefined;
    for await (const event of agentLoop({ prompt, options })) {
      emit(event);
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
    // However the child ended (done, failed, cancelled, out of budget): its servers stop now,
    // before its worktree is finished.
    await servers?.close();
  }
}

/** The output with `note` after it, an error staying an error. */
function withNote(output: ToolOutput, note: string): ToolOutput {
  if (typeof output === 'string') return `${output}\n\n${note}`;
  return { ...output, output: `${output.output}\n\n${note}` };
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
