// Runs one sub-agent for an Agent or delegate call: admit it (depth, name), then its life as a
// ChildRun (child-run.ts) — in the foreground, where its parent's call waits for its checked
// text, or in the background, where the call returns its task at once. A foreground child can
// be sent to the background while it runs (foreground-children.ts); a remote one runs elsewhere.

import { messageOf } from '../core/error-message.js';
import type { AgentRef } from '../core/events.js';
import { launchedOutput } from '../core/launched-output.js';
import { type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { ChildRun } from './child-run.js';
import { DetachableChild } from './detachable-child.js';
import type { ChildEnding } from './drive-child.js';
import { handOff, throwIfFatal } from './hand-off.js';
import { runRemoteAgent, runRemoteSubagent } from './remote-child.js';
import { createSubagentContext, type Spawner, type SubagentRequest } from './subagent-context.js';

export interface SpawnRequest extends SubagentRequest {
  /** Unique among live agents; SendMessage can address the agent by it. */
  name?: string;
  /** The model asked for in the call, kept so a restart asks for the same. */
  model?: string;
}

/**
 * Not async itself: each async layer is one more frame, promise and wake-up per child, held
 * while it runs (a thousand at once, say).
 */
export function runSubagent(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  if (ctx.agent.depth >= runtime.maxDepth) {
    return Promise.resolve(
      toolError(`Sub-agents may nest ${runtime.maxDepth} levels deep; this one would be deeper.`),
    );
  }
  const taken = request.name ? runtime.directory.liveByName(request.name) : undefined;
  if (taken) {
    return Promise.resolve(
      toolError(
        `The name "${request.name}" belongs to a running agent (${taken.agentId}). Choose another name, or send it a message with SendMessage.`,
      ),
    );
  }
  if (request.definition.remote) return runRemoteAgent(spawner, request, ctx);
  // An ACP child is a process beside its parent: it speaks to this warren, not to a worker's.
  const local = request.definition.kind === 'acp';
  if (!local && (request.remote || runtime.remote?.all)) {
    return runRemoteSubagent(spawner, request, ctx);
  }
  if (request.background) return startInBackground(spawner, request, ctx);
  return runtime.slots.lendWhile(ctx.agent.agentId, ctx.signal, () =>
    waitForForeground(spawner, request, ctx),
  );
}

/** Its parent's call waits for it, until it ends or is sent to the background. */
async function waitForForeground(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const { agentId, agentPath } = runtime.newChild(ctx, request.definition.name);
  const run = newChildRun(spawner, request, ctx, agentId);
  run.agentPath = agentPath;
  // A free slot is taken at once; `acquire` waits for one (and refuses a stopped turn).
  if (ctx.signal.aborted || !runtime.slots.tryAcquire(agentId)) {
    await runtime.slots.acquire(agentId, ctx.signal);
  }
  const child = new DetachableChild(ctx.emit, ctx.run.cancelSignal);
  const forget = runtime.foreground.add({
    agentId,
    parentId: ctx.agent.agentId,
    toBackground: () => runtime.background !== undefined && child.detach(),
  });
  const work = runForeground(spawner, request, ctx, run, child);
  try {
    // A child's output is never undefined; sent to the background, the wait ends with undefined.
    const first = await child.outcome(work);
    if (first !== undefined) return first;
  } finally {
    forget();
  }
  // Sent to the background while it ran: the rest of its work is a task, and the parent reads
  // the task's id now, as for a child started in the background.
  run.restart = {
    agentType: request.definition.name,
    prompt: request.prompt,
    model: request.model,
    agentPath: run.options?.agentPath,
  };
  const task = runtime.background!.launch(run.adopt(child, work));
  return launchedOutput(task.taskId, agentId, task.status);
}

function newChildRun(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
  agentId: string,
): ChildRun {
  const { agentId: parentId, depth } = ctx.agent;
  const owner: AgentRef = { agentId: parentId, parentId: ctx.agent.parentId, depth };
  const run = new ChildRun(spawner.runtime, { agentId, parentId, depth: depth + 1 }, owner, {
    agentType: request.definition.name,
    description: request.description,
    name: request.name,
  });
  run.record = ctx.run.inherited.onEvent;
  return run;
}

/** A foreground child from its worktree to its checked output: what its parent's call returns. */
async function runForeground(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
  run: ChildRun,
  child: DetachableChild,
): Promise<ToolOutput> {
  try {
    const placing = run.place(request, ctx);
    const refused = placing && (await placing);
    if (refused !== undefined) return toolError(refused);
    let output: ToolOutput | undefined;
    try {
      output = await driveForeground(spawner, request, ctx, run, child);
    } finally {
      output = await run.finish(output, child.emit);
    }
    // Reached only when the child's run returned its output.
    return output!;
  } finally {
    child.ended();
    spawner.runtime.slots.release(run.agentId);
  }
}

async function driveForeground(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
  run: ChildRun,
  child: DetachableChild,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  let warnings: string[];
  try {
    warnings = run.derived(await createSubagentContext(spawner, request, ctx, run));
  } catch (error) {
    return toolError(`The ${request.definition.name} agent could not start: ${messageOf(error)}`);
  }
  const { options } = run;
  // It stops with its parent's turn, or with the run's background work once sent there.
  options.signal = child.signal;
  run.warn(warnings, child.emit);
  const starting = run.startServers(request, ctx);
  if (starting) await starting;
  child.running = true;
  let ending: ChildEnding;
  try {
    ending = await run.drive(child.emit, child.stopper);
  } finally {
    child.running = false;
  }
  run.ending = ending;
  const { result } = ending;
  // Sent to the background, it ends as a task: its owner reads the notification, and a failure
  // is reported there rather than ending its owner.
  if (child.isDetached) {
    const handed = await handOff(result, runtime, runtime.background?.signal ?? child.signal);
    return run.handedOff(ending, handed, child.emit);
  }
  throwIfFatal(
    result,
    request.definition,
    ctx.run.cancelSignal,
    `${options.agentPath} (${result.agentId})`,
  );
  const handed = await handOff(result, runtime, ctx.signal, { frame: true });
  return run.handedOff(ending, handed, child.emit);
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
  const { agentId, agentPath } =
    request.agentId === undefined
      ? runtime.newChild(ctx, request.definition.name)
      : { agentId: request.agentId, agentPath: undefined };
  const run = newChildRun(spawner, request, ctx, agentId);
  run.agentPath = agentPath;
  run.background = true;
  const refused = await run.place(request, ctx);
  if (refused !== undefined) return toolError(refused);
  try {
    const warnings = run.derived(await createSubagentContext(spawner, request, ctx, run));
    run.warn(warnings, ctx.emit);
    // Its servers start now and stop when it ends, whenever that is.
    await run.startServers(request, ctx);
  } catch (error) {
    const output = toolError(
      `The ${request.definition.name} agent could not start: ${messageOf(error)}`,
    );
    return run.finish(output, ctx.emit);
  }
  const outputSchema = ownSchema(spawner, request);
  const { workspace } = run;
  run.restart = {
    agentType: request.definition.name,
    prompt: request.prompt,
    model: request.model,
    agentPath: run.options.agentPath,
    ...(workspace && { worktree: workspace.worktree.path }),
    ...(outputSchema && { outputSchema }),
  };
  const task = port.launch(run);
  return launchedOutput(task.taskId, agentId, task.status);
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
