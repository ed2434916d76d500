// Runs one sub-agent for an Agent or delegate call: take a slot, run the loop again with the
// child's context, pass its events up, and hand the parent only its checked final text (or end
// the whole run, for a failure that must not be recovered from). A background child is handed
// to the run's background work instead, and the call returns at once.

import type { RunResult } from '../core/events.js';
import { FatalToolError, type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { neutraliseHandoff } from '../hooks/handoff-check.js';
import { messageOf } from '../model/retry-policy.js';
import { type AgentServers, startAgentServers, withAgentServerTools } from './agent-mcp-servers.js';
import { childTools } from './child-tools.js';
import { driveChild } from './drive-child.js';
import { handOff } from './hand-off.js';
import {
  createSubagentContext,
  type Spawner,
  type SubagentOptions,
  type SubagentRequest,
  type SubagentStart,
} from './subagent-context.js';

export interface SpawnRequest extends SubagentRequest {
  /** Unique among live agents; SendMessage can address the agent by it. */
  name?: string;
  /** The model asked for in the call, kept so a restart asks for the same. */
  model?: string;
}

export async function runSubagent(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const type = request.definition.name;
  if (ctx.agent.depth >= runtime.maxDepth) {
    return toolError(
      `Sub-agents may nest ${runtime.maxDepth} levels deep; this one would be deeper.`,
    );
  }
  const taken = request.name ? runtime.directory.liveByName(request.name) : undefined;
  if (taken) {
    return toolError(
      `The name "${request.name}" belongs to a running agent (${taken.agentId}). Choose another name, or send it a message with SendMessage.`,
    );
  }
  if (request.background) return startInBackground(spawner, request, ctx);
  return runtime.slots.lendWhile(ctx.agent.agentId, ctx.signal, async () => {
    let start: SubagentStart;
    try {
      start = await createSubagentContext(spawner, request, ctx);
    } catch (error) {
      return toolError(`The ${type} agent could not start: ${messageOf(error)}`);
    }
    const { options } = start;
    await runtime.slots.acquire(options.agentId, ctx.signal);
    const child = {
      agentId: options.agentId,
      parentId: ctx.agent.agentId,
      depth: ctx.agent.depth + 1,
    };
    for (const message of start.warnings) ctx.emit({ ...child, type: 'warning', message });
    let servers: AgentServers | undefined;
    try {
      servers = await startOwnServers(spawner, request, ctx, options);
      const ending = await driveChild(
        runtime,
        { prompt: request.prompt, options, name: request.name, background: false },
        ctx.emit,
      );
      // The parent is being cancelled too: let its loop see that, not a child failure.
      ctx.run.cancelSignal.throwIfAborted();
      const ended = ending.result;
      if (ended.fatal) throw new FatalToolError(`${type} agent: ${ended.error}`);
      if (request.definition.onFailure === 'fatal' && failed(ended)) {
        throw new FatalToolError(
          `${type} agent at ${options.agentPath} (${ended.agentId}) ${ended.status === 'failed' ? 'failed' : `stopped early (${ended.status})`}, and its definition makes any failure fatal (onFailure: fatal): ${ended.error}`,
        );
      }
      const handed = await handOff(ended, runtime, ctx.signal);
      const ref = { agentId: ended.agentId, parentId: ended.parentId, depth: ended.depth };
      for (const message of handed.warnings) ctx.emit({ ...ref, type: 'warning', message });
      return withPartial(handed.output, ending.partial);
    } finally {
      // However the child ended (done, failed, cancelled, out of budget): its servers stop now.
      await servers?.close();
      runtime.slots.release(options.agentId);
    }
  });
}

/** Hands the child to the run's background work; the model gets the task id at once. */
async function startInBackground(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const port = runtime.background;
  if (!port) {
    return toolError(
      'run_in_background is not available in this run (it has no task manager). Call Agent without it to run the agent and wait for its result.',
    );
  }
  let options: SubagentOptions;
  let servers: AgentServers | undefined;
  try {
    const start = await createSubagentContext(spawner, request, ctx);
    options = start.options;
    const child = {
      agentId: options.agentId,
      parentId: ctx.agent.agentId,
      depth: ctx.agent.depth + 1,
    };
    for (const message of start.warnings) ctx.emit({ ...child, type: 'warning', message });
    // Its servers start now and stop when it ends, whenever that is.
    servers = await startOwnServers(spawner, request, ctx, options);
  } catch (error) {
    return toolError(`The ${request.definition.name} agent could not start: ${messageOf(error)}`);
  }
  const { agentId, parentId, depth } = ctx.agent;
  const task = port.launch({
    prompt: request.prompt,
    options,
    name: request.name,
    background: true,
    owner: { agentId, parentId, depth },
    servers,
    restart: {
      agentType: request.definition.name,
      prompt: request.prompt,
      model: request.model,
      agentPath: options.agentPath,
    },
  });
  return launchedOutput(task.taskId, options.agentId, task.status);
}

/**
 * Starts the child's own MCP servers and adds their tools, and those of servers it names, to
 * its list. Its definition's deny list and read-only rule still apply to them; its allow list
 * does not: declaring a server is what grants its tools.
 */
export async function startOwnServers(
  spawner: Spawner,
  request: SubagentRequest,
  ctx: Pick<SpawnToolContext, 'run' | 'cwd' | 'signal' | 'agent'> &
    Partial<Pick<SpawnToolContext, 'emit'>>,
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
    for (const message of servers.warnings) ctx.emit?.({ ...child, type: 'warning', message });
  }
  const granted = childTools(servers.tools, { ...definition, tools: undefined }).tools;
  options.tools = withAgentServerTools(options.tools ?? [], granted);
  return servers;
}

/** The tool result of a background start: JSON the model can keep, and what to do next. */
export function launchedOutput(taskId: string, agentId: string, status: string): string {
  const json = JSON.stringify({ task_id: taskId, agent_id: agentId, status });
  const when =
    status === 'pending' ? ' It starts as soon as a slot under --max-parallel is free.' : '';
  return `${json}\nThe agent runs in the background.${when} You will be notified with its result when it finishes; do not guess or invent its result before then. Go on with other work, or end your turn to wait.`;
}

/** A stopped child's output, with what it was still writing (escaped like its other text). */
export function withPartial(output: ToolOutput, partial: string): ToolOutput {
  if (!partial || typeof output === 'string') return output;
  const cut = `\n\nWhat it was writing when it stopped:\n${neutraliseHandoff(partial).text}`;
  return { ...output, output: `${output.output}${cut}` };
}

/** Not completed, and not because its parent is being cancelled. */
export function failed(result: RunResult): boolean {
  return result.status !== 'completed' && result.status !== 'cancelled';
}
