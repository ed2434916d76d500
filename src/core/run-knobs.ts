// The defaults of a run's knobs, written once: a run's plan applies them (run/run-defaults.ts for
// a library caller, the CLI's flags, a worker's child), and what a library user may call without
// a plan (`agentLoop()`, TaskManager) documents the same values by reading them here.

import type { RetryOptions } from './inherited-options.js';

/** The knobs of a run every plan carries, each with its value set. */
export interface RunKnobs {
  /** Deepest sub-agent level; the main agent is depth 0. */
  maxDepth: number;
  /** Sub-agents running at once across the whole tree. */
  maxParallel: number;
  /** A child's final text (and a task's result) is cut to this many characters for its parent. */
  resultMaxChars: number;
  /** Snapshots a child's copy of its parent's file-state cache keeps. */
  fileStateMaxEntries: number;
  /** A child with no model output and no tool activity for this long is stopped as `stalled`. */
  stallTimeoutMs: number;
  /** Record prompts, replies and tool input/output on the spans of a traced run. */
  traceContent: boolean;
  /** A model request with no response, or no next chunk, for this long is aborted and retried. */
  requestTimeoutMs: number;
  /** Longest a tool call may run unless the tool sets its own. */
  toolTimeoutMs: number;
  /** One last turn without tools when a limit ends the run, so the agent can report. */
  graceTurn: boolean;
  /** Stream replies as they are written (`message_delta` per piece). */
  stream: boolean;
  /** How a failed model call is retried: attempts, delays, and when no retry starts any more. */
  retry: Required<RetryOptions>;
}

export const RUN_KNOBS: Readonly<RunKnobs> = {
  maxDepth: 3,
  maxParallel: 10,
  resultMaxChars: 5000,
  fileStateMaxEntries: 200,
  // Ten minutes, as Claude Code's background watchdog.
  stallTimeoutMs: 600_000,
  traceContent: false,
  requestTimeoutMs: 120_000,
  toolTimeoutMs: 15 * 60_000,
  graceTurn: true,
  stream: true,
  retry: { maxRetries: 5, initialDelayMs: 500, maxDelayMs: 30_000, maxElapsedMs: 5 * 60_000 },
};

/** Every knob: the one given, else its default. */
export function runKnobs(
  given: Partial<Omit<RunKnobs, 'retry'>> & { retry?: RetryOptions },
): RunKnobs {
  return {
    maxDepth: given.maxDepth ?? RUN_KNOBS.maxDepth,
    maxParallel: given.maxParallel ?? RUN_KNOBS.maxParallel,
    resultMaxChars: given.resultMaxChars ?? RUN_KNOBS.resultMaxChars,
    fileStateMaxEntries: given.fileStateMaxEntries ?? RUN_KNOBS.fileStateMaxEntries,
    stallTimeoutMs: given.stallTimeoutMs ?? RUN_KNOBS.stallTimeoutMs,
    traceContent: given.traceContent ?? RUN_KNOBS.traceContent,
    requestTimeoutMs: given.requestTimeoutMs ?? RUN_KNOBS.requestTimeoutMs,
    toolTimeoutMs: given.toolTimeoutMs ?? RUN_KNOBS.toolTimeoutMs,
    graceTurn: given.graceTurn ?? RUN_KNOBS.graceTurn,
    stream: given.stream ?? RUN_KNOBS.stream,
    // Each field the caller leaves out keeps its default, as the loop merges them.
    retry: { ...RUN_KNOBS.retry, ...given.retry },
  };
}
