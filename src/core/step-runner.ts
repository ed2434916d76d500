// The loop's one seam for durable execution: every model call and every tool call is a step the
// loop hands to a StepRunner. The default runs it at once; an engine's runner (Restate's ctx.run)
// journals its result, so a run replayed after a crash gets it back instead of doing it again.

/** What a step is, for the runner: journal entry names, progress, and which results to expect. */
export interface LoopStep {
  /** `model`: one model turn (its result is a `ModelTurn`); `tool`: one tool call (a `ToolResultPart`). */
  kind: 'model' | 'tool';
  /** Stable within a run and the same on a replay: `model#3`, `tool#3.1:Bash`. */
  name: string;
}

/**
 * Runs the loop's steps. Contract for a runner that journals:
 * - `run` is called in the same order on a replay, at the same points of the run; a step's
 *   result (a JSON value) is recorded before the next step that depends on it starts.
 * - A step that fails is a result too: record it and throw it again on a replay, as an `Error`
 *   with the same `name` and `message` (and a `FatalToolError`'s `fatal` mark), so the loop takes
 *   the same path. Only the runner's own infrastructure failures may be retried.
 * - Steps of one assistant message's tool calls may run at the same time.
 */
export interface StepRunner {
  run<T>(step: LoopStep, work: () => Promise<T>): Promise<T>;
}

/** Runs each step at once, as a plain call: the default, and what a local run uses. */
export const directSteps: StepRunner = {
  run: (_step, work) => work(),
};
