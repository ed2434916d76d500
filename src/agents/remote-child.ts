// One remote child for an Agent or delegate call: its spec submitted to the run's RemoteExecutor
// (idempotent per agent id), then awaited (foreground) or a `remote_agent` task (background). Its
// parent reads it as a local child's: the same hand-off, events (made from its result), transcript.
import { messageOf } from '../core/error-message.js';
import type { AgentEvent, AgentRef, RunResult } from '../core/events.js';
import { launchedOutput } from '../core/launched-output.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import { type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { withTraceparent } from '../core/trace-context.js';
import { forkedTurns } from './fork-context.js';
import { handOff, throwIfFatal } from './hand-off.js';
import { RemoteChildTask } from './remote-child-task.js';
import {
  failedRemote,
  remotePortOf,
  remoteRunStart,
  reportRemoteEnding,
  resultOf,
  withWorktreeNote,
} from './remote-ending.js';
import type { RemotePort } from './remote-port.js';
import { remoteSpec } from './remote-spec.js';
import type { SpawnRequest } from './run-subagent.js';
import type { Spawner } from './subagent-context.js';

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
    const child = new RemoteChildTask(runtime, spec, {
      owner: { agentId, parentId, depth },
      name: request.name,
      parentToolCallId: ctx.toolCallId,
      record: ctx.run.inherited.onEvent,
    });
    const task = background.launch(child);
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
  throwIfFatal(result, request.definition, ctx.run.cancelSignal, result.agentId);
  // What the parent reads, exactly as for a local child.
  const handed = await handOff(result, runtime, ctx.signal, { frame: true });
  const { agentId, parentId, depth } = result;
  for (const message of handed.warnings)
    sink({ agentId, parentId, depth, type: 'warning', message });
  return withWorktreeNote(handed.output, result);
}

/** Events of the child go to its parent's stream and are recorded (transcripts) as they are made. */
function recordedSink(ctx: SpawnToolContext): (event: AgentEvent) => void {
  const record = ctx.run.inherited.onEvent;
  return (event) => {
    record?.(event);
    ctx.emit(event);
  };
}
