// Runs one sub-agent for an Agent or delegate call: take a slot, run the loop again with the
// child's context, pass its events up, and hand the parent only the final text. A background
// child is handed to the run's background work instead, and the call returns at once.

import { FatalToolError, type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { messageOf } from '../model/retry-policy.js';
import { type AgentServers, startAgentServers, withAgentServerTools } from './agent-mcp-servers.js';
import { childTools } from './child-tools.js';
import { type ChildEnding, driveChild } from './drive-child.js';
import {
  createSubagentContext,
  type Spawner,
  type SubagentOptions,
  type SubagentRequest,
} from './subagent-context.js';
import type { SubagentRuntime } from './subagent-runtime.js';

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
      const ending = await driveChild(
        runtime,
        { prompt: request.prompt, options, name: request.name, background: false },
        ctx.emit,
      );
      // The parent is being cancelled too: let its loop see that, not a child failure.
      ctx.run.cancelSignal.throwIfAborted();
      if (ending.result.fatal) throw new FatalToolError(`${type} agent: ${ending.result.error}`);
      return outputFor(ending, runtime);
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
    options = await createSubagentContext(spawner, request, ctx);
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

/** What the parent model reads: the child's final text, cut to size, with a note if it stopped early. */
export function outputFor({ result, partial }: ChildEnding, runtime: SubagentRuntime): ToolOutput {
  const type = result.agentType;
  const text = truncateResult(result.result, runtime, result.agentId);
  switch (result.status) {
    case 'completed':
      return text || `(The ${type} agent finished without a final message.)`;
    case 'max_turns':
    case 'budget':
      return `${text}\n\n[Note: the ${type} agent was stopped early: ${result.error} The text above is the report it gave then.]`;
    default: {
      const what =
        result.status === 'cancelled'
          ? 'was cancelled'
          : result.status === 'stalled'
            ? 'stalled'
            : 'failed';
      const last = text ? `\n\nIts last message:\n${text}` : '';
      const cut = partial ? `\n\nWhat it was writing when it stopped:\n${partial}` : '';
      return toolError(
        `The ${type} agent ${what}: ${result.error ?? 'no reason given'}${last}${cut}`,
      );
    }
  }
}

/** A child's text cut to `resultMaxChars`, naming the transcript where the whole text is. */
export function truncateResult(text: string, runtime: SubagentRuntime, agentId: string): string {
  const max = runtime.resultMaxChars;
  if (text.length <= max) return text;
  const transcript = runtime.transcriptPathFor(agentId);
  const where = transcript ? `the transcript ${transcript}` : `the transcript of agent ${agentId}`;
  return `${text.slice(0, max)}\n\n[Truncated: ${text.length - max} of ${text.length} characters left out. The full text is in ${where}.]`;
}
