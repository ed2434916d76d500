// A workflow item is an ordinary background child: started by the Agent tool's spawn path
// (runSubagent), kept in the task store, restarted from its own transcript after a crash by
// --resume (tasks/resume-tasks.ts). The workflow reads its ending itself, so its owner gets no
// notification for it.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { childRestarts } from '../agents/restarted-child.js';
import { runSubagent } from '../agents/run-subagent.js';
import { newAgentId, type Spawner } from '../agents/subagent-context.js';
import { FINAL_TASK_STATUSES, type TaskRecord } from '../core/tasks.js';
import type { SpawnToolContext } from '../core/tool.js';
import { BackgroundTasks } from '../tasks/background-tasks.js';
import { restartEndedAgent } from '../tasks/resume-tasks.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { ItemRequest } from './item-request.js';
import { attachRemoteItem } from './remote-item-attach.js';
import type { ItemOutcome, ItemRunner } from './workflow-engine.js';

export interface ItemRunnerOptions {
  /** The model of items that name none; default: the calling agent's. */
  model?: LanguageModelV4;
}

export function subagentItemRunner(
  spawner: Spawner,
  ctx: SpawnToolContext,
  options: ItemRunnerOptions = {},
): ItemRunner {
  const tasks = spawner.runtime.background;
  if (!(tasks instanceof BackgroundTasks)) {
    throw new Error('workflows need a run with background tasks (a task manager)');
  }
  const { manager } = tasks;
  // Items inherit `options.model` in place of the caller's (a CLI run's main agent only drives).
  // The run's live fields are getters (loop/run-view.ts): read here, as they were when spread.
  const { run } = ctx;
  const parent = options.model
    ? {
        ...ctx,
        run: {
          ...run,
          cancelSignal: run.cancelSignal,
          turnsLeft: run.turnsLeft,
          model: options.model,
        },
      }
    : ctx;
  const owner = {
    agentId: ctx.agent.agentId,
    parentId: ctx.agent.parentId,
    depth: ctx.agent.depth,
  };
  /** An ended item's agent, restarted from its transcript; undefined when it cannot be. */
  const restart = (record: TaskRecord) =>
    restartEndedAgent({ tasks, children: childRestarts(spawner, parent) }, record, owner).catch(
      () => undefined,
    );
  return {
    async run(request, control) {
      const earlier =
        control.resumeAgentId === undefined
          ? undefined
          : manager
              .list()
              .find(
                (record) =>
                  record.agentId === control.resumeAgentId && record.kind === 'local_agent',
              );
      // Cut off with another process (another machine's) while it ran on a worker: attached to.
      const remote = spawner.runtime.remote;
      if (!earlier && control.resumeAgentId !== undefined && remote?.all) {
        const attached = await attachRemoteItem(
          remote.executor,
          control.resumeAgentId,
          request,
          control.signal,
        );
        if (attached) {
          control.started(control.resumeAgentId);
          return attached;
        }
      }
      let record: TaskRecord;
      const ended = earlier && (earlier.status === 'failed' || earlier.status === 'cancelled');
      const restarted = earlier && ended ? await restart(earlier) : undefined;
      if (earlier && !ended) {
        // Restarted by --resume from its transcript (or ended since): the same agent, read again.
        control.started(control.resumeAgentId!);
        record = earlier;
      } else if (restarted) {
        // Stopped by the breaker (or failing on the error that tripped it): it went on from its
        // own transcript, so what it had done is not done again.
        control.started(control.resumeAgentId!);
        record = restarted;
      } else {
        // The journal names the agent before its task exists: after a crash in between, the
        // resume finds no task for it and starts the item again, never a second agent beside one.
        const agentId = newAgentId();
        control.started(agentId);
        const started = await launch(spawner, parent, request, {
          agentId,
          signal: control.signal,
          ...options,
        });
        if (!started.ok)
          return { status: 'failed', error: started.error, tokens: 0, costUsd: null };
        record = manager.get(started.taskId)!;
      }
      // The item's ending is the workflow's to read, never a notification of the main agent.
      manager.claim(record.taskId);
      const stop = () => void manager.stop(record.taskId, reasonOf(control.signal));
      control.signal.addEventListener('abort', stop, { once: true });
      if (control.signal.aborted) stop();
      try {
        record = await waitWatchingBlocked(manager, record.taskId, control.blocked);
      } finally {
        control.signal.removeEventListener('abort', stop);
      }
      return outcomeOf(record, request);
    },
  };
}

/** How often a running item's task is looked at for a wait on a person (its `blocked` state). */
const BLOCKED_CHECK_MS = 500;

/** Waits for the task's end, saying when its agent starts or stops waiting on a person. */
async function waitWatchingBlocked(
  manager: TaskManager,
  taskId: string,
  blocked: ((on: string | null) => void) | undefined,
): Promise<TaskRecord> {
  let shown: string | null = null;
  for (;;) {
    const now = await manager.wait(taskId, blocked ? { timeoutMs: BLOCKED_CHECK_MS } : {});
    const ended = FINAL_TASK_STATUSES.has(now.status);
    const on = ended ? null : (now.progress.blockedOn ?? null);
    if (on !== shown) {
      shown = on;
      blocked?.(on);
    }
    if (ended) return now;
  }
}

async function launch(
  spawner: Spawner,
  ctx: SpawnToolContext,
  request: ItemRequest,
  options: ItemRunnerOptions & { agentId: string; signal: AbortSignal },
): Promise<{ ok: true; taskId: string } | { ok: false; error: string }> {
  const { agentId, signal } = options;
  const defined = spawner.runtime.findDefinition(request.agentType);
  if (!defined) {
    const names = [...spawner.runtime.definitions.keys()].sort().join(', ');
    return { ok: false, error: `unknown agentType "${request.agentType}"; defined: ${names}` };
  }
  const definition = request.schema ? { ...defined, outputSchema: request.schema } : defined;
  const output = await runSubagent(
    spawner,
    {
      definition,
      prompt: request.prompt,
      description: request.label,
      model: request.model,
      forkContext: false,
      background: true,
      agentId,
      ...(request.effort && { effort: request.effort }),
      ...(request.isolation && { isolation: request.isolation }),
    },
    { ...ctx, signal },
  );
  const text = typeof output === 'string' ? output : output.output;
  if (typeof output !== 'string' && output.isError) return { ok: false, error: text };
  const launched = JSON.parse(text.split('\n', 1)[0]!) as { task_id: string };
  return { ok: true, taskId: launched.task_id };
}

function outcomeOf(record: TaskRecord, request: ItemRequest): ItemOutcome {
  const spent = {
    tokens: record.progress.tokens,
    costUsd: record.costUsd,
    agentId: record.agentId ?? undefined,
  };
  if (record.status === 'completed') {
    if (!request.schema) return { status: 'completed', value: record.result ?? '', ...spent };
    const value = parseJson(record.result);
    if (value.ok) return { status: 'completed', value: value.value, ...spent };
    return {
      status: 'failed',
      error: `the agent ended without a value of the schema: ${clip(record.error ?? record.result ?? '')}`,
      ...spent,
    };
  }
  if (record.status === 'cancelled')
    return { status: 'cancelled', error: record.error ?? 'stopped', ...spent };
  return {
    status: record.agentStatus === 'no_progress' ? 'no_progress' : 'failed',
    error: record.error ?? clip(record.result ?? 'the agent failed'),
    ...spent,
  };
}

function parseJson(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : 'Stopped by the workflow.';
}

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
