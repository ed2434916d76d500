// One remote child for an Agent or delegate call: its spec submitted to the run's RemoteExecutor
// (idempotent per agent id), then awaited (foreground) or a `remote_agent` task (background). Its
// parent reads it as a local child's: the same hand-off, events (made from its result), transcript.
import type { AgentEvent, AgentRef, RunResult } from '../core/events.js';
import type { RemoteChildSpec, RemoteExecutor } from '../core/remote-executor.js';
import { FatalToolError, type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { withTraceparent } from '../core/trace-context.js';
import { emptyUsage } from '../core/usage.js';
import { messageOf } from '../model/retry-policy.js';
import { forkedTurns } from './fork-context.js';
import { handOff, withNote } from './hand-off.js';
import { launchedOutput } from './launched-output.js';
import type { RemotePort } from './remote-port.js';
import { remoteSpec } from './remote-spec.js';
import type { SpawnRequest } from './run-subagent.js';
import type { Spawner } from './subagent-context.js';
import type { SubagentRuntime } from './subagent-runtime.js';

/** How long a cancelled remote child may take to report how it ended. */
const CANCEL_SETTLE_MS = 15_000;

/** A `kind: remote` definition: the same, through the port of its A2A agent. */
export function runRemoteAgent(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
): Promise<ToolOutput> {
  const port = remotePortOf(spawner.runtime, request.definition.name);
  if (typeof port === 'string') return Promise.resolve(toolError(port));
  return runRemoteSubagent(spawner, request, ctx, port);
}

/**
 * Where a remote child of `type` runs: its A2A agent for a `kind: remote` definition, else the
 * run's remote executor; a string says why it cannot run.
 */
export function remotePortOf(runtime: SubagentRuntime, type: string): RemotePort | string {
  const definition = runtime.findDefinition(type);
  if (definition?.remote) {
    const port = runtime.remoteAgents?.(definition);
    if (port === undefined || typeof port === 'string') {
      return `The ${type} agent is a remote (A2A) agent, and this run cannot reach it${port ? `: ${port}` : ' (it has no A2A client)'}.`;
    }
    return port;
  }
  return runtime.remote ?? 'This run has no remote executor.';
}

export async function runRemoteSubagent(
  spawner: Spawner,
  request: SpawnRequest,
  ctx: SpawnToolContext,
  port: RemotePort | undefined = spawner.runtime.remote,
): Promise<ToolOutput> {
  const { runtime } = spawner;
  const type = request.definition.name;
  if (!port) {
    return toolError(
      `The ${type} agent asks to run remotely (isolation: "remote"), and this run has no remote executor. Run warren with --executor restate --restate-url <ingress> (or set WARREN_RESTATE_URL), or call Agent without isolation "remote".`,
    );
  }
  if (forkedTurns(request.forkContext) !== undefined) {
    return toolError(
      `The ${type} agent cannot run remotely with forkContext: a remote child starts from its prompt alone. Call Agent without forkContext, saying in the prompt what it needs.`,
    );
  }
  let spec: RemoteChildSpec;
  try {
    spec = remoteSpec(spawner, request, ctx, port);
  } catch (error) {
    return toolError(`The ${type} agent could not start remotely: ${messageOf(error)}`);
  }
  if (request.background) {
    const background = runtime.background;
    if (!background) {
      return toolError(
        'run_in_background is not available in this run (it has no task manager). Call Agent without it to run the agent and wait for its result.',
      );
    }
    const { agentId, parentId, depth } = ctx.agent;
    const task = background.launchRemote({
      spec,
      owner: { agentId, parentId, depth },
      name: request.name,
      parentToolCallId: ctx.toolCallId,
    });
    return launchedOutput(task.taskId, spec.agentId, task.status);
  }
  const sink = recordedSink(ctx);
  const ref: AgentRef = { agentId: spec.agentId, parentId: spec.parentId, depth: spec.depth };
  sink(remoteRunStart(spec, ctx.toolCallId));
  runtime.directory.startedRemote(
    { ...ref, agentType: type, description: spec.description, path: spec.agentPath },
    { name: request.name, background: false },
  );
  let result: RunResult;
  try {
    await port.executor.submit(
      await withTraceparent(spec, runtime.traceContext),
      ctx.run.cancelSignal,
    );
    result = await resultOf(port.executor, spec.agentId, ctx.run.cancelSignal);
  } catch (error) {
    result = failedRemote(spec, `The remote ${type} agent could not be run: ${messageOf(error)}`);
  }
  reportRemoteEnding(result, sink);
  runtime.directory.ended(result);
  // The parent is being cancelled too: let its loop see that, not a child failure.
  ctx.run.cancelSignal.throwIfAborted();
  return handedOff(result, runtime, ctx, request);
}

/**
 * The child's result once it has ended. When `cancel` aborts first, the child is cancelled (and
 * with it what it waits for) and its result, saying so, is awaited a little longer.
 */
export async function resultOf(
  executor: RemoteExecutor,
  agentId: string,
  cancel: AbortSignal,
): Promise<RunResult> {
  const settle = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onCancel = () => {
    executor.cancel(agentId).catch(() => {});
    timer = setTimeout(() => settle.abort(cancel.reason), CANCEL_SETTLE_MS);
  };
  if (cancel.aborted) onCancel();
  else cancel.addEventListener('abort', onCancel, { once: true });
  try {
    return await executor.result(agentId, settle.signal);
  } finally {
    cancel.removeEventListener('abort', onCancel);
    clearTimeout(timer);
  }
}

/** What the parent reads, exactly as for a local child: fatal failures end it too. */
async function handedOff(
  result: RunResult,
  runtime: SubagentRuntime,
  ctx: SpawnToolContext,
  request: SpawnRequest,
): Promise<ToolOutput> {
  const type = request.definition.name;
  if (result.fatal) throw new FatalToolError(`${type} agent: ${result.error}`);
  if (
    request.definition.onFailure === 'fatal' &&
    result.status !== 'completed' &&
    result.status !== 'cancelled'
  ) {
    throw new FatalToolError(
      `${type} agent at ${result.agentId} ${result.status === 'failed' ? 'failed' : `stopped early (${result.status})`}, and its definition makes any failure fatal (onFailure: fatal): ${result.error}`,
    );
  }
  const handed = await handOff(result, runtime, ctx.signal, { frame: true });
  const ref = { agentId: result.agentId, parentId: result.parentId, depth: result.depth };
  for (const message of handed.warnings) ctx.emit({ ...ref, type: 'warning', message });
  return withWorktreeNote(handed.output, result);
}

/** The output with the note on the child's worktree after it, as for a local child's. */
export function withWorktreeNote(output: ToolOutput, result: RunResult): ToolOutput {
  return result.worktree ? withNote(output, result.worktree.note) : output;
}

/** Events of the child go to its parent's stream and are recorded (transcripts) as they are made. */
function recordedSink(ctx: SpawnToolContext): (event: AgentEvent) => void {
  const record = ctx.run.inherited.onEvent;
  return (event) => {
    record?.(event);
    ctx.emit(event);
  };
}

/** The child's `run_start`, as its worker's loop made it (it ran there). */
export function remoteRunStart(spec: RemoteChildSpec, parentToolCallId?: string): AgentEvent {
  return {
    agentId: spec.agentId,
    parentId: spec.parentId,
    depth: spec.depth,
    type: 'run_start',
    agentType: String(spec.definition.name),
    description: spec.description,
    model: spec.model.spec,
    tools: [...spec.tools],
    cwd: spec.cwd,
    path: spec.agentPath,
    ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
  };
}

/**
 * Its worktree's reports (made and finished on its worker), its conversation, what it spent and
 * its result, so its sidechain transcript and the agent tree have them.
 */
export function reportRemoteEnding(result: RunResult, sink: (event: AgentEvent) => void): void {
  const ref = { agentId: result.agentId, parentId: result.parentId, depth: result.depth };
  for (const report of result.worktree?.reports ?? [])
    sink({ ...ref, type: 'worktree', ...report });
  for (const message of result.messages) sink({ ...ref, type: 'message_end', message });
  // Its model calls ran elsewhere (a worker, whose events stay there and are gone after a crash;
  // an A2A agent): their sum, once, is what the agent tree, the transcript and `agents[]` add up.
  if (result.numTurns > 0 || hasTokens(result.usage) || result.costUsd !== null) {
    sink({
      ...ref,
      type: 'usage',
      turn: result.numTurns,
      usage: result.usage,
      costUsd: result.costUsd,
      durationMs: result.durationMs,
      finishReason: 'other',
    });
  }
  sink({ ...result, type: 'result' });
}

function hasTokens(usage: RunResult['usage']): boolean {
  return Object.values(usage).some((count) => count > 0);
}

/**
 * A remote child that never ran (its executor failed, or it could not start on its worker): a
 * failure its parent reads.
 */
export function failedRemote(
  spec: Pick<RemoteChildSpec, 'agentId' | 'parentId' | 'depth' | 'description'> & {
    definition: { readonly name?: unknown };
  },
  error: string,
): RunResult {
  return {
    agentId: spec.agentId,
    parentId: spec.parentId,
    depth: spec.depth,
    subtype: 'error_during_execution',
    status: 'failed',
    isError: true,
    result: '',
    error,
    agentType: String(spec.definition.name),
    description: spec.description,
    numTurns: 0,
    toolCalls: 0,
    durationMs: 0,
    usage: emptyUsage(),
    costUsd: null,
    messages: [],
  };
}
