// Runs one workflow run to its end or its pause: the script in the sandbox, each agent() call
// answered from the journal when it completed before (whatever its order), otherwise launched
// through the gate (concurrency, breaker), under its wall-clock limit and the run's budget.
import { messageOf } from '../core/error-message.js';
import { BreakerTripped, ItemGate } from './item-gate.js';
import { itemProgress } from './item-progress.js';
import { type ItemRequest, itemRequest } from './item-request.js';
import { describeCause, terminalCause } from './terminal-cause.js';
import type { ItemEventStatus, WorkflowEvent } from './workflow-events.js';
import type { WorkflowRecord } from './workflow-record.js';
import { runInSandbox } from './workflow-sandbox.js';
import type { ItemStatus, RunStatus, StoredItem } from './workflow-store.js';

/** How one item ended, as its runner reports it. */
export interface ItemOutcome {
  /** `no_progress`: the agent was stopped looping (loop/no-progress.ts); it fails its item. */
  status: 'completed' | 'failed' | 'no_progress' | 'cancelled';
  /** What the script gets: the final text, or the structured value when a schema was given. */
  value?: unknown;
  error?: string;
  tokens: number;
  costUsd: number | null;
  agentId?: string;
}

/** Runs one item as an agent; failures are outcomes, not throws. */
export interface ItemRunner {
  run(
    request: ItemRequest,
    control: {
      signal: AbortSignal;
      /** The agent of an earlier attempt that was cut off: continue it from its transcript. */
      resumeAgentId?: string;
      /** The item's agent is known: recorded before it makes its first model call. */
      started(agentId: string): void;
      /** Its agent waits on a person's permission answer (`on`), or no longer (null). */
      blocked?(on: string | null): void;
    },
  ): Promise<ItemOutcome>;
}

export interface WorkflowLimits {
  maxConcurrent: number;
  maxAgents: number;
  maxItemsPerCall: number;
  warnAboveAgents: number;
}

export const DEFAULT_LIMITS: WorkflowLimits = {
  maxConcurrent: 16,
  maxAgents: 1000,
  maxItemsPerCall: 4096,
  warnAboveAgents: 25,
};

export interface WorkflowItemSummary {
  label: string;
  key: string;
  occurrence: number;
  status: ItemStatus;
  error?: string;
}

export interface WorkflowRunResult {
  runId: string;
  name: string;
  status: Exclude<RunStatus, 'running'>;
  /** Why it paused or failed. */
  reason?: string;
  /** The script's `result` export. */
  result?: unknown;
  /** Every agent() call of this pass, in the order the script made them. */
  items: WorkflowItemSummary[];
  /** Calls answered from the journal, and calls that ran an agent, in this pass. */
  cached: number;
  launched: number;
  spentTokens: number;
  budgetTokens: number | null;
}

export interface RunWorkflowParams {
  /** The task store, or the task store kept in step with Restate (workflow-record.ts). */
  store: WorkflowRecord;
  runId: string;
  runner: ItemRunner;
  limits?: Partial<WorkflowLimits>;
  onEvent?: (event: WorkflowEvent) => void;
  /** The run is stopped (Ctrl-C, TaskStop, the session ending): it ends `paused`, resumable. */
  signal?: AbortSignal;
  resumed?: boolean;
}

export async function runWorkflow(params: RunWorkflowParams): Promise<WorkflowRunResult> {
  const { store, runId, runner } = params;
  const limits = { ...DEFAULT_LIMITS, ...params.limits };
  const emit = (event: WorkflowEvent) => params.onEvent?.(event);
  const run = store.run(runId);
  if (!run) throw new Error(`no workflow run ${runId}`);
  const journal = new Map(
    store.items(runId).map((item) => [slot(item.key, item.occurrence), item]),
  );
  const gate = new ItemGate(limits.maxConcurrent);
  const occurrences = new Map<string, number>();
  const items: WorkflowItemSummary[] = [];
  let spent = run.spentTokens;
  let calls = 0;
  let cached = 0;
  let launched = 0;
  let warned = false;
  const warnOnce = (count: number) => {
    if (warned || count <= limits.warnAboveAgents) return;
    warned = true;
    emit({
      type: 'workflow_warning',
      runId,
      message: `Large workflow: it plans more than ${limits.warnAboveAgents} agents (${count}); each is a full agent run with its own cost.`,
    });
  };
  const stopped = new AbortController();
  const onStop = () => gate.trip('stopped before it finished');
  params.signal?.addEventListener('abort', onStop, { once: true });
  gate.signal.addEventListener('abort', () => stopped.abort(), { once: true });
  await store.updateRun(runId, { status: 'running', reason: '' });
  emit({ type: 'workflow_start', runId, name: run.name, resumed: params.resumed === true });

  const agent = async (prompt: string, options: Record<string, unknown>): Promise<string> => {
    calls++;
    if (calls > limits.maxAgents) {
      throw new Error(
        `this workflow would start more than ${limits.maxAgents} agents, the limit of one run`,
      );
    }
    warnOnce(calls);
    const request = itemRequest(prompt, options);
    const occurrence = occurrences.get(request.key) ?? 0;
    occurrences.set(request.key, occurrence + 1);
    const summary: WorkflowItemSummary = {
      label: request.label,
      key: request.key,
      occurrence,
      status: 'running',
    };
    items.push(summary);
    const before = journal.get(slot(request.key, occurrence));
    const itemEvent = (status: ItemEventStatus, error?: string) => {
      const { key, label } = request;
      emit({ type: 'workflow_item', runId, key, occurrence, label, status, error });
    };
    if (before?.status === 'completed' && before.result !== null) {
      cached++;
      summary.status = 'completed';
      itemEvent('cached');
      return before.result;
    }
    const ended = (status: ItemStatus, error?: string) => {
      summary.status = status;
      if (error) summary.error = error;
      itemEvent(status, error);
      return JSON.stringify({
        message: error ?? status,
        status,
        label: request.label,
        key: request.key,
      });
    };
    // Never launched (the breaker had tripped, or trips now): recorded paused, resumable.
    const notLaunched = async (reason: string) => {
      const agentId = before?.agentId ?? null;
      await store.startItem(runId, { key: request.key, occurrence, label: request.label, agentId });
      const end = {
        status: 'paused' as const,
        result: null,
        error: reason,
        tokens: 0,
        costUsd: null,
      };
      await store.endItem(runId, request.key, occurrence, end);
      return ended('paused', reason);
    };
    try {
      await gate.enter();
    } catch (error) {
      throw await notLaunched(reasonOf(error));
    }
    try {
      if (run.budgetTokens !== null && spent >= run.budgetTokens) {
        gate.trip(describeCause('budget', `${spent} of ${run.budgetTokens} tokens`));
        throw new BreakerTripped(gate.tripped!);
      }
      return await launch(request, occurrence, before, ended);
    } catch (error) {
      if (error instanceof BreakerTripped) throw await notLaunched(error.reason);
      throw error;
    } finally {
      gate.leave();
    }
  };

  const launch = async (
    request: ItemRequest,
    occurrence: number,
    before: StoredItem | undefined,
    ended: (status: ItemStatus, error?: string) => string,
  ): Promise<string> => {
    launched++;
    // A cut-off attempt (running when the process died, or paused mid-run) goes on in its agent.
    const resumeAgentId =
      before && (before.status === 'running' || before.status === 'paused')
        ? (before.agentId ?? undefined)
        : undefined;
    await store.startItem(runId, {
      key: request.key,
      occurrence,
      label: request.label,
      agentId: resumeAgentId ?? null,
    });
    const progress = itemProgress(emit, { runId, request, occurrence, resumeAgentId });
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = AbortSignal.any([gate.signal, timeout]);
    const outcome = await runner.run(request, {
      signal,
      resumeAgentId,
      // Not waited for: the end's write carries the agent too, and writes land in order.
      started: (agentId) => {
        progress.running(agentId);
        void Promise.resolve(store.setItemAgent(runId, request.key, occurrence, agentId)).catch(
          () => undefined,
        );
      },
      blocked: progress.blocked,
    });
    progress.running(resumeAgentId);
    spent += outcome.tokens;
    await store.updateRun(runId, { spentTokens: spent });
    const record = (status: ItemStatus, result: string | null, error: string | null) =>
      store.endItem(runId, request.key, occurrence, {
        status,
        result,
        error,
        tokens: outcome.tokens,
        costUsd: outcome.costUsd,
      });
    if (outcome.status === 'completed') {
      const json = JSON.stringify(outcome.value ?? null);
      await record('completed', json, null);
      ended('completed');
      return json;
    }
    if (timeout.aborted && !gate.signal.aborted) {
      const error = `timed out after ${request.timeoutMs} ms (timeoutMs)`;
      await record('failed', null, error);
      throw ended('failed', error);
    }
    if (gate.signal.aborted) {
      await record('paused', null, gate.tripped ?? 'stopped');
      throw ended('paused', gate.tripped);
    }
    const error = outcome.error ?? 'the agent failed';
    const cause = terminalCause(error);
    if (cause) {
      gate.trip(describeCause(cause, error));
      await record('paused', null, error);
      throw ended('paused', gate.tripped);
    }
    const status = outcome.status === 'no_progress' ? 'no_progress' : 'failed';
    await record(status, null, error);
    throw ended(status, error);
  };

  let status: Exclude<RunStatus, 'running'>;
  let reason: string | undefined;
  let result: unknown;
  try {
    result = await runInSandbox(
      run.source,
      run.filename,
      sandboxHost(
        run.args,
        limits,
        agent,
        emit,
        runId,
        () => ({
          total: run.budgetTokens,
          spent,
        }),
        warnOnce,
      ),
      { signal: stopped.signal },
    );
    const failed = items.some((item) => item.status === 'failed' || item.status === 'no_progress');
    status = failed ? 'completed_with_errors' : 'completed';
  } catch (error) {
    status = 'failed';
    reason = reasonOf(error);
  } finally {
    params.signal?.removeEventListener('abort', onStop);
  }
  // Once the breaker has tripped the run never says completed: what is left runs on resume.
  if (gate.tripped !== undefined) {
    status = 'paused';
    reason = gate.tripped;
  }
  await store.updateRun(runId, {
    status,
    reason: reason ?? '',
    spentTokens: spent,
    result: result === undefined ? '' : JSON.stringify(result),
  });
  emit({ type: 'workflow_end', runId, status, reason, spentTokens: spent });
  return {
    runId,
    name: run.name,
    status,
    reason,
    result,
    items,
    cached,
    launched,
    spentTokens: spent,
    budgetTokens: run.budgetTokens,
  };
}

function sandboxHost(
  args: string,
  limits: WorkflowLimits,
  agent: (prompt: string, options: Record<string, unknown>) => Promise<string>,
  emit: (event: WorkflowEvent) => void,
  runId: string,
  budget: () => { total: number | null; spent: number },
  warnOnce: (count: number) => void,
) {
  return {
    agent: ({ prompt, options }: { prompt: string; options: Record<string, unknown> }) =>
      agent(prompt, options),
    call(op: string, payload: unknown): string {
      const given = (payload ?? {}) as Record<string, unknown>;
      switch (op) {
        case 'args':
          return args;
        case 'budget': {
          const { total, spent } = budget();
          return JSON.stringify({
            total,
            spent,
            remaining: total === null ? null : Math.max(0, total - spent),
          });
        }
        case 'phase':
          emit({ type: 'workflow_phase', runId, title: String(given.title) });
          return 'null';
        case 'log':
          emit({ type: 'workflow_log', runId, message: String(given.message) });
          return 'null';
        case 'items': {
          const count = Number(given.count);
          if (count > limits.maxItemsPerCall) {
            throw new Error(
              `${String(given.of)} got ${count} items; at most ${limits.maxItemsPerCall} per call (split the list)`,
            );
          }
          warnOnce(count);
          return 'null';
        }
        default:
          throw new Error(`unknown host call ${op}`);
      }
    },
  };
}

function slot(key: string, occurrence: number): string {
  return `${key}#${occurrence}`;
}

function reasonOf(error: unknown): string {
  return messageOf(error);
}
