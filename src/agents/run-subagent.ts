// Runs one sub-agent for an Agent or delegate call: take a slot, make its worktree if it asked
// for one, run the loop again with the child's context, pass its events up, and hand the parent
// only its checked final text and what became of the worktree (or end the whole run, for a
// failure that must not be recovered from). A background child is handed to the run's
// background work instead, and the call returns at once; so is a foreground child sent to the
// background while it runs (foreground-children.ts).

import type { AgentRef, RunResult } from '../core/events.js';
import { FatalToolError, type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { neutraliseHandoff } from '../hooks/handoff-check.js';
import { messageOf } from '../model/retry-policy.js';
import { type AgentServers, startAgentServers, withAgentServerTools } from './agent-mcp-servers.js';
import { childTools } from './child-tools.js';
import {
  announcingWorktree,
  type ChildWorkspace,
  finishChildWorktree,
  openChildWorktree,
} from './child-worktree.js';
import { DetachableChild } from './detachable-child.js';
import { type ChildEnding, driveChild } from './drive-child.js';
import { handOff, withNote } from './hand-off.js';
import { launchedOutput } from './launched-output.js';
import { runRemoteAgent, runRemoteSubagent } from './remote-child.js';
import {
  createSubagentContext,
  type Spawner,
  type SubagentOptions,
  type SubagentRequest,
  type SubagentStart,
} from './subagent-context.js';

export { launchedOutput } from './launched-output.js';

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
  if (request.definition.remote) return runRemoteAgent(spawner, request, ctx);
  // An ACP child is a process beside its parent: it speaks to this warren, not to a worker's.
  const local = request.definition.kind === 'acp';
  if (!local && (request.remote || runtime.remote?.all)) {
    return runRemoteSubagent(spawner, request, ctx);
  }
  if (request.background) return startInBackground(spawner, request, ctx);
  return runtime.slots.lendWhile(ctx.agent.agentId, ctx.signal, async () => {
    const agentId = runtime.childId(ctx, request.definition.name);
    await runtime.slots.acquire(agentId, ctx.signal);
    const child = new DetachableChild(ctx.emit, ctx.run.cancelSignal);
    const forget = runtime.foreground.add({
      agentId,
      parentId: ctx.agent.agentId,
      toBackground: () => runtime.background !== undefined && child.detach(),
    });
    const placed: Placed = {};
    const work = runForeground(spawner, request, ctx, child, agentId, placed).finally(() => {
      runtime.slots.release(agentId);
    });
    try {
      const first = await Promise.race([work, child.detached.then(() => DETACHED)]);
      if (first !== DETACHED) return first as ToolOutput;
    } finally {
      forget();
    }
    // Sent to the background while it ran: the rest of its work is a task, and the parent reads
    // the task's id now, as for a child started in the background.
    const { options } = placed;
    const task = runtime.background!.adopt({
      owner: { agentId: ctx.agent.agentId, parentId: ctx.agent.parentId, depth: ctx.agent.depth },
      agentId,
      agentType: request.definition.name,
      description: request.description,
      name: request.name,
      restart: {
        agentType: request.definition.name,
        prompt: request.prompt,
        model: request.model,
        agentPath: options?.agentPath,
      },
      handOver: async (sink, signal) => {
        child.moveTo(sink, signal);
        const output = await work;
        return { ending: placed.ending, output };
      },
    });
    return launchedOutput(task.taskId, agentId, task.status);
  });
}

const DETACHED = Symbol('detached');

/** What a foreground child's run learns that a task needs if it is sent to the background. */
interface Placed {
  options?: SubagentOptions;
  ending?: ChildEnding;
}

/** A foreground child from its worktree to its checked output: what its parent's call returns. */
async function runForeground(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
  child: DetachableChild,
  agentId: string,
  placed: Placed,
): Promise<ToolOutput> {
  const opened = await openWorkspace(request, ctx, agentId);
  if (!opened.ok) return toolError(opened.message);
  const { workspace } = opened;
  const ref: AgentRef = { agentId, parentId: ctx.agent.agentId, depth: ctx.agent.depth + 1 };
  let output: ToolOutput | undefined;
  try {
    output = await runChild(spawner, request, ctx, { agentId, workspace, ref, child, placed });
  } finally {
    // However the child ended (a throw included), its worktree is finished, and the note
    // about it ends what the parent reads.
    if (workspace) {
      const { note } = await finishChildWorktree(workspace, ref, request, child.emit);
      if (output !== undefined) output = withNote(output, note);
    }
  }
  return output;
}

/** The child's own worktree when it asked for one (`isolation: worktree`); else none. */
async function openWorkspace(
  request: SpawnRequest,
  ctx: SpawnToolContext,
  agentId: string,
): Promise<{ ok: true; workspace?: ChildWorkspace } | { ok: false; message: string }> {
  if (request.isolation !== 'worktree') return { ok: true };
  return openChildWorktree({
    agentId,
    parent: { cwd: ctx.cwd, allowedDirs: ctx.allowedDirs, agentId: ctx.agent.agentId },
    agentType: request.definition.name,
    description: request.description,
    base: request.worktreeBase,
  });
}

async function runChild(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
  placement: {
    agentId: string;
    workspace: ChildWorkspace | undefined;
    ref: AgentRef;
    child: DetachableChild;
    placed: Placed;
  },
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const { child, placed } = placement;
  const type = request.definition.name;
  let start: SubagentStart;
  try {
    start = await createSubagentContext(spawner, request, ctx, placement);
  } catch (error) {
    return toolError(`The ${type} agent could not start: ${messageOf(error)}`);
  }
  const { prompt } = start;
  // It stops with its parent's turn, or with the run's background work once sent there.
  const options = { ...start.options, signal: child.signal };
  placed.options = options;
  for (const message of start.warnings) child.emit({ ...placement.ref, type: 'warning', message });
  const emit = placement.workspace
    ? announcingWorktree(child.emit, placement.workspace, placement.ref)
    : child.emit;
  let servers: AgentServers | undefined;
  try {
    servers = await startOwnServers(spawner, request, ctx, options);
    child.running = true;
    const ending = await driveChild(
      runtime,
      { prompt, options, name: request.name, background: false },
      emit,
    ).finally(() => {
      child.running = false;
    });
    placed.ending = ending;
    const ended = ending.result;
    // Sent to the background, it ends as a task: its owner reads the notification, and a
    // failure is reported there rather than ending its owner.
    if (!child.isDetached) {
      // The parent is being cancelled too: let its loop see that, not a child failure.
      ctx.run.cancelSignal.throwIfAborted();
      if (ended.fatal) throw new FatalToolError(`${type} agent: ${ended.error}`);
      if (request.definition.onFailure === 'fatal' && failed(ended)) {
        throw new FatalToolError(
          `${type} agent at ${options.agentPath} (${ended.agentId}) ${ended.status === 'failed' ? 'failed' : `stopped early (${ended.status})`}, and its definition makes any failure fatal (onFailure: fatal): ${ended.error}`,
        );
      }
    }
    const signal = child.isDetached ? (runtime.background?.signal ?? child.signal) : ctx.signal;
    const handed = await handOff(ended, runtime, signal, { frame: !child.isDetached });
    const ref = { agentId: ended.agentId, parentId: ended.parentId, depth: ended.depth };
    for (const message of handed.warnings) {
      const warning = { ...ref, type: 'warning' as const, message };
      child.emit(warning);
      // Made outside any loop: a task's host hears of it only here.
      if (child.isDetached) options.onEvent?.(warning);
    }
    return withPartial(handed.output, ending.partial);
  } finally {
    // However the child ended (done, failed, cancelled, out of budget): its servers stop now,
    // before its worktree is finished.
    await servers?.close();
  }
}

/**
 * Hands the child to the run's background work; the model gets the task id at once. Its
 * worktree, if it asked for one, is made now and finished when it ends, whenever that is.
 */
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
  // A caller that records the id before the task exists (a workflow's journal) chooses it.
  const agentId = request.agentId ?? runtime.childId(ctx, request.definition.name);
  const opened = await openWorkspace(request, ctx, agentId);
  if (!opened.ok) return toolError(opened.message);
  const { workspace } = opened;
  const outputSchema = ownSchema(spawner, request);
  const ref: AgentRef = { agentId, parentId: ctx.agent.agentId, depth: ctx.agent.depth + 1 };
  let options: SubagentOptions;
  let prompt: string;
  let servers: AgentServers | undefined;
  try {
    const start = await createSubagentContext(spawner, request, ctx, { agentId, workspace });
    ({ options, prompt } = start);
    for (const message of start.warnings) ctx.emit({ ...ref, type: 'warning', message });
    // Its servers start now and stop when it ends, whenever that is.
    servers = await startOwnServers(spawner, request, ctx, options);
  } catch (error) {
    const output = toolError(
      `The ${request.definition.name} agent could not start: ${messageOf(error)}`,
    );
    if (!workspace) return output;
    const { note } = await finishChildWorktree(workspace, ref, request, ctx.emit);
    return withNote(output, note);
  }
  const { parentId, depth } = ctx.agent;
  const task = port.launch({
    prompt,
    options,
    name: request.name,
    background: true,
    owner: { agentId: ctx.agent.agentId, parentId, depth },
    servers,
    workspace,
    restart: {
      agentType: request.definition.name,
      prompt: request.prompt,
      model: request.model,
      agentPath: options.agentPath,
      ...(workspace && { worktree: workspace.worktree.path }),
      ...(outputSchema && { outputSchema }),
    },
  });
  return launchedOutput(task.taskId, options.agentId, task.status);
}

/** A JSON output schema the call gave in place of its definition's: a restart needs it again. */
function ownSchema(
  spawner: Spawner,
  request: SpawnRequest,
): Readonly<Record<string, unknown>> | undefined {
  const schema = request.definition.outputSchema;
  const own = spawner.runtime.findDefinition(request.definition.name)?.outputSchema;
  if (!schema || schema === own || '_zod' in schema) return undefined;
  return schema as Readonly<Record<string, unknown>>;
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
  // A forked child must see its own servers' tools too, at the price of its parent's cache.
  if (options.shownTools) options.shownTools = withAgentServerTools(options.shownTools, granted);
  return servers;
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
