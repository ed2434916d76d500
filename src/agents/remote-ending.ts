// How a remote child (on a Restate worker, or an A2A agent) reads here, foreground or as a
// task: where it runs, its `run_start` and ending made from its result (its loop ran elsewhere),
// its result awaited with cancel, and a failure for one that never ran.
import type { AgentEvent, RunResult } from '../core/events.js';
import type { RemoteChildSpec, RemoteExecutor } from '../core/remote-executor.js';
import type { ToolOutput } from '../core/tool.js';
import { emptyUsage } from '../core/usage.js';
import { withNote } from './hand-off.js';
import type { RemotePort } from './remote-port.js';
import type { SubagentRuntime } from './subagent-runtime.js';

/** How long a cancelled remote child may take to report how it ended. */
const CANCEL_SETTLE_MS = 15_000;

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

/** The output with the note on the child's worktree after it, as for a local child's. */
export function withWorktreeNote(output: ToolOutput, result: RunResult): ToolOutput {
  return result.worktree ? withNote(output, result.worktree.note) : output;
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
