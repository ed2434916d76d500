// An item whose agent was cut off with the process that ran the workflow, but lives on as a
// remote child (`--executor restate`): the resume attaches to that child, on whichever machine
// it now runs, instead of starting the item again, so nothing it did or will do is paid twice.
import type { RunResult } from '../core/events.js';
import type { RemoteExecutor } from '../core/remote-executor.js';
import { budgetTokens } from '../core/usage.js';
import type { ItemRequest } from './item-request.js';
import type { ItemOutcome } from './workflow-engine.js';

/**
 * The outcome of remote child `agentId`, once it ends; undefined when it was never submitted or
 * cannot be attached to (the item then starts again). `signal` stops the child.
 */
export async function attachRemoteItem(
  executor: RemoteExecutor,
  agentId: string,
  request: ItemRequest,
  signal: AbortSignal,
): Promise<ItemOutcome | undefined> {
  try {
    if ((await executor.progress(agentId, signal)) === undefined) return undefined;
  } catch {
    return undefined;
  }
  const stop = () => void executor.cancel(agentId).catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    return outcomeOf(await executor.result(agentId, signal), request);
  } catch {
    if (signal.aborted) return { status: 'cancelled', error: 'stopped', tokens: 0, costUsd: null };
    return undefined;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

function outcomeOf(result: RunResult, request: ItemRequest): ItemOutcome {
  const spent = {
    tokens: budgetTokens(result.usage),
    costUsd: result.costUsd,
    agentId: result.agentId,
  };
  if (result.status === 'completed') {
    if (!request.schema) return { status: 'completed', value: result.result, ...spent };
    if (result.structuredOutput !== undefined) {
      return { status: 'completed', value: result.structuredOutput, ...spent };
    }
    return { status: 'failed', error: 'the agent ended without a value of the schema', ...spent };
  }
  if (result.status === 'cancelled') {
    return { status: 'cancelled', error: result.error ?? 'stopped', ...spent };
  }
  return {
    status: result.status === 'no_progress' ? 'no_progress' : 'failed',
    error: result.error ?? 'the agent failed',
    ...spent,
  };
}
