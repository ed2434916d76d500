// Why a run stops before its model is done: cancelled (or stopped as stalled by whoever aimed
// at this agent), out of budget, out of turns, or interrupted with nothing left to wait for.
import { AgentStop } from '../core/agent-stop.js';
import type { Budget, BudgetKind } from '../core/budget.js';
import { describeBudget } from '../core/budget.js';
import type { AgentRef, AgentStatus } from '../core/events.js';
import type { Deadline } from './stop-signals.js';

export type Stop = {
  status: Exclude<AgentStatus, 'completed'>;
  reason: string;
  /** Paused at its budget (pauseAtBudget): no grace turn, nothing asked of the model after it. */
  paused?: boolean;
};

/** What of a run decides whether it must stop. */
export interface StopFacts {
  readonly ref: AgentRef;
  readonly cancel: { signal: AbortSignal };
  readonly deadline: Deadline | undefined;
  readonly budget: Budget;
  readonly options: { maxTurns?: number; pauseAtBudget?: boolean };
  readonly numTurns: number;
}

/** An interrupted turn with nothing in the background left to wait for ends the run. */
export const INTERRUPTED: Stop = { status: 'cancelled', reason: 'The turn was interrupted.' };

/**
 * Endings without a grace turn: nobody is waiting for a report, the model does not answer, or it
 * is looping (its last replies are its report).
 */
export const NO_GRACE: ReadonlySet<AgentStatus> = new Set(['cancelled', 'stalled', 'no_progress']);

/** Why the run must stop now, if it must; checked before every model call. */
export function limitReached(run: StopFacts): Stop | undefined {
  if (run.cancel.signal.aborted) return cancelled(run);
  const kind = run.deadline?.expired.aborted ? 'time' : run.budget.exhausted();
  if (kind) return budgetStop(kind, run.options.pauseAtBudget);
  const { maxTurns } = run.options;
  if (maxTurns !== undefined && run.numTurns >= maxTurns) {
    return { status: 'max_turns', reason: `Reached the maximum of ${maxTurns} turns.` };
  }
  return undefined;
}

/** A thrown error that is really a limit (cancel, time budget) becomes a stop, not a failure. */
export function stopFromError(run: StopFacts, error: unknown): Stop | undefined {
  if (run.cancel.signal.aborted) return cancelled(run);
  if (run.deadline?.expired.aborted) return budgetStop('time');
  const kind = run.budget.exhausted();
  if (kind && error instanceof Error && error.name === 'AbortError') {
    return budgetStop(kind, run.options.pauseAtBudget);
  }
  return undefined;
}

/** A stop aimed at this agent (TaskStop, the stall watchdog) says why; any other is a cancel. */
function cancelled(run: StopFacts): Stop {
  const reason: unknown = run.cancel.signal.reason;
  if (AgentStop.isInstance(reason) && reason.agentId === run.ref.agentId) {
    return { status: reason.status, reason: reason.message };
  }
  return { status: 'cancelled', reason: 'The run was cancelled.' };
}

/** Time always ends the run; a token or cost budget pauses it when asked to (pauseAtBudget). */
function budgetStop(kind: BudgetKind, pause = false): Stop {
  if (!pause || kind === 'time') {
    return { status: 'budget', reason: `The ${describeBudget(kind)} is used up.` };
  }
  return {
    status: 'budget',
    paused: true,
    reason: `Paused: the ${describeBudget(kind)} is used up, so nothing more was asked of the model. Resume the session with a larger budget to go on.`,
  };
}
