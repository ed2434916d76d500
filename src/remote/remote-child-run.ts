// What a worker's engine hands the code that runs one remote child (run/worker-child.ts, given
// to the worker as `WorkerSettings.runChild`): the checked spec, the journal's runner and side
// steps, the cancel signal and inbox, and the worker's own keys, endpoint and executor.
import type { RemotePort } from '../agents/remote-port.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { Inbox } from '../core/inbox.js';
import type { StepRunner } from '../core/step-runner.js';
import type { CheckedChildSpec } from './child-spec-schema.js';
import type { SideStep } from './worker-worktree.js';

export interface RemoteChildRun {
  spec: CheckedChildSpec;
  /** The engine's runner: every model call and tool call of the child is one of its steps. */
  steps: StepRunner;
  /** Aborts when the engine cancels the child. */
  signal: AbortSignal;
  inbox?: Inbox;
  /**
   * When the child first started (a journaled clock read): its time budget and its prompt's
   * date count from here on every replay, so a replay takes the same decisions.
   */
  startedAt: number;
  /**
   * Runs a side effect of the worker's own (a check of the filesystem, a worktree made) as a
   * journaled step, so a replay takes the path the first run took. Default: runs it directly.
   */
  side?: SideStep;
  /** Where the worker's own children go, when the worker has an executor. */
  remote?: RemotePort;
  /** Where the model's key and endpoint are read: the worker's environment. */
  env?: Record<string, string | undefined>;
  /**
   * Where openai-compatible models send requests: the worker's own `--base-url` (else its
   * WARREN_BASE_URL). Never the spec's: a spec must not choose where the worker's key goes.
   */
  modelBaseUrl?: string;
  onEvent?: (event: AgentEvent) => void;
}

/** Runs the child to its end; never throws for a child that could not start: it ends `failed`. */
export type RunRemoteChild = (run: RemoteChildRun) => Promise<RunResult>;
