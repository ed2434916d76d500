// Runs one sub-agent for an Agent or delegate call: take a slot, make its worktree if it asked
// for one, run the loop again with the child's context, pass its events up, and hand the parent
// only the final text (and what became of the worktree).

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
import {
  createSubagentContext,
  newAgentId,
  type Spawner,
  type SubagentOptions,
  type SubagentRequest,
} from './subagent-context.js';
import type { SubagentRuntime } from './subagent-runtime.js';

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
  let options: SubagentOptions;
  try {
    options = await createSubagentContext(spawner, request, ctx, placement);
  } catch (error) {
    return toolError(`The ${type} agent could not start: ${messageOf(error)}`);
  }
  const emit = placement.workspace
    ? announcingWorktree(ctx.emit, placement.workspace, placement.ref)
    : ctx.emit;
  let servers: AgentServers | undefined;
  try {
    servers = await startOwnServers(spawner, request, ctx, options);
    let result: RunResult | undefined;
    for await (const event of agentLoop({ prompt: request.prompt, options })) {
      emit(event);
      if (event.type === 'result' && event.agentId === options.agentId) result = event;
    }
    // The parent is being cancelled too: let its loop see that, not a child failure.
    ctx.run.cancelSignal.throwIfAborted();
    if (result!.fatal) throw new FatalToolError(`${type} agent: ${result!.error}`);
    return outputFor(result!, runtime);
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
  return servers;
}

/** What the parent model reads: the child's final text, cut to size, with a note if it stopped early. */
function outputFor(result: RunResult, runtime: SubagentRuntime): ToolOutput {
  const type = result.agentType;
  const text = truncate(result.result, runtime.resultMaxChars, () => {
    const transcript = runtime.transcriptPathFor(result.agentId);
    return transcript
      ? `the transcript ${transcript}`
      : `the transcript of agent ${result.agentId}`;
  });
  switch (result.status) {
    case 'completed':
      return text || `(The ${type} agent finished without a final message.)`;
    case 'max_turns':
    case 'budget':
      return `${text}\n\n[Note: the ${type} agent was stopped early: ${result.error} The text above is the report it gave then.]`;
    default: {
      const what = result.status === 'cancelled' ? 'was cancelled' : 'failed';
      const last = text ? `\n\nIts last message:\n${text}` : '';
      return toolError(`The ${type} agent ${what}: ${result.error ?? 'no reason given'}${last}`);
    }
  }
}

function truncate(text: string, max: number, where: () => string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[Truncated: ${text.length - max} of ${text.length} characters left out. The full text is in ${where()}.]`;
}
