// A planned run started: the main agent (plain, or after its servers and definition are set up)
// inside the session's hooks and, with a tracer provider, its spans; and the Query handle a host
// holds while it runs (interrupt, send to the background, its tasks).
import { runInSession } from '../agents/session-hooks-run.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { HookRunner } from '../core/hook-runner.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { tracedRun } from '../telemetry/traced-run.js';
import { mainLoop, plainMainOptions, runWithSetup } from './main-agent.js';
import { planRun } from './plan-run.js';
import type { Query, QueryOptions } from './query-options.js';
import { queryInput } from './run-defaults.js';
import type { RunInput, RunPlan } from './run-plan.js';

/**
 * query()'s run, from its options with the main agent's id and task manager filled in: options
 * that cannot be used make the first `next()` reject.
 */
export function startQuery(
  prompt: string,
  options: QueryOptions & { agentId: string; tasks: TaskManager },
): Query {
  try {
    return runQuery(prompt, queryInput(options));
  } catch (error) {
    return failedQuery(error, options.tasks);
  }
}

/**
 * Plans the run and starts it. A plan that cannot be made (a broken definition) makes the first
 * `next()` reject, as a failing run would.
 */
export function runQuery(prompt: string, input: RunInput): Query {
  let plan: RunPlan;
  try {
    plan = planRun(input);
  } catch (error) {
    return failedQuery(error, input.tasks);
  }
  const { runtime, interrupter } = plan.ports;
  return Object.assign(startRun(prompt, plan), {
    interrupt: () => interrupter.interrupt(),
    sendToBackground: (agentId?: string) =>
      runtime.foreground.toBackground(
        agentId === undefined ? { parentId: plan.agentId } : { agentId },
      ),
    tasks: input.tasks,
  });
}

/** A run that could not start: its first `next()` rejects with why. */
export function failedQuery(error: unknown, tasks: TaskManager): Query {
  return Object.assign(rejecting(error), {
    interrupt: () => {},
    sendToBackground: () => [],
    tasks,
  });
}

function startRun(prompt: string, plan: RunPlan): AsyncGenerator<AgentEvent, RunResult> {
  const { session } = plan;
  // Without servers, a definition or hooks, the loop's own generator, not a wrapper: every
  // event of the tree passes through here.
  const begin = (hooks: HookRunner | undefined) =>
    plan.servers.length > 0 || plan.mainDefinition !== undefined
      ? runWithSetup(prompt, plan, hooks)
      : mainLoop(prompt, plainMainOptions(plan, hooks), plan);
  const run = session
    ? runInSession(
        session,
        {
          ref: { agentId: plan.agentId, parentId: null, depth: 0 },
          agentType: plan.agentType,
          path: plan.agentPath,
          cwd: plan.cwd,
          model: plan.model,
          resumed: (plan.messages?.length ?? 0) > 0,
          signal: plan.signal,
          definition: plan.mainDefinition,
          onEvent: plan.onEvent,
        },
        begin,
      )
    : begin(undefined);
  if (!plan.tracerProvider) return run;
  return tracedRun(run, plan.tracerProvider, {
    logContent: plan.traceContent,
    sessionId: plan.sessionId,
    traceparent: plan.traceparent,
    baseUrl: plan.baseUrl,
    contexts: plan.traceContexts,
  });
}

// biome-ignore lint/correctness/useYield: it only rejects, on the first next(), like the loop would.
async function* rejecting(error: unknown): AsyncGenerator<never, never> {
  throw error;
}
