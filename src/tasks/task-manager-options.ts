// What a TaskManager is made with, and how a wait on one of its tasks is bounded.
import type { AgentEvent } from '../core/events.js';
import type { RunIds } from '../core/run-ids.js';
import type { TaskStore } from './task-store.js';

export interface TaskManagerOptions {
  /** Where rows go; default an in-memory store (nothing survives the process). */
  store?: TaskStore;
  /** The run's cancel signal: every task stops with it. */
  signal?: AbortSignal;
  /** Called with every event the manager makes (`task_*`): the run's `onEvent`. */
  onEvent?: (event: AgentEvent) => void;
  /** A result is cut to this many characters in its notification. Default: the run's (5000). */
  resultMaxChars?: number;
  /** Progress is written (and reported) at most this often per task. Default 1000. */
  progressIntervalMs?: number;
  /** Where task ids come from; a replay gives the recorded ones. Default: fresh. */
  runIds?: RunIds;
}

export interface WaitOptions {
  /** Give up after this long and return the task as it is. */
  timeoutMs?: number;
  signal?: AbortSignal;
}
