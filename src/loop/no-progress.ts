// No-progress detection for every agent: the same tool calls with the same results, batch after
// batch, mean the agent is looping. The third such batch in a row puts a notice in its context;
// the fourth stops that agent alone as `no_progress` (its parent and siblings go on).
import { createHash } from 'node:crypto';
import type { AgentEvent } from '../core/events.js';
import type { ToolCallPart, ToolResultPart } from '../core/messages.js';
import { append, type RunState } from './run-state.js';
import type { Stop } from './run-stops.js';

/** Identical batches in a row before the agent is told it is looping. */
export const NOTICE_AT = 3;
/** Identical batches in a row that stop it. */
export const STOP_AT = 4;

export const NO_PROGRESS_NOTICE =
  '<system-reminder>Your last 3 batches of tool calls were identical (the same calls with the same ' +
  'arguments, getting the same results): you are making no progress. Do something different, or ' +
  'finish with what you have. One more identical batch stops you.</system-reminder>';

/**
 * Tools whose calls wait on other work (a background task's end): asking again with the same
 * answer is waiting, not looping, so a batch with one of them does not count.
 */
const WAITING_TOOLS: ReadonlySet<string> = new Set(['TaskOutput']);

/** What the watch says after a batch: nothing, tell the agent, or stop it. */
export type ProgressVerdict =
  | { kind: 'ok' }
  | { kind: 'notice'; text: string }
  | { kind: 'stop'; stop: Stop };

/** Counts identical batches in a row; one per agent run. */
export class ProgressWatch {
  #last: string | undefined;
  #repeats = 0;

  /** Records one batch (its calls and their results) and says what follows from it. */
  observe(calls: readonly ToolCallPart[], results: readonly ToolResultPart[]): ProgressVerdict {
    if (calls.some((call) => WAITING_TOOLS.has(call.toolName))) {
      this.#last = undefined;
      this.#repeats = 0;
      return { kind: 'ok' };
    }
    const signature = signatureOf(calls, results);
    this.#repeats = signature === this.#last ? this.#repeats + 1 : 1;
    this.#last = signature;
    if (this.#repeats >= STOP_AT) {
      const names = [...new Set(calls.map((call) => call.toolName))].join(', ');
      return {
        kind: 'stop',
        stop: {
          status: 'no_progress',
          reason: `No progress: the same tool calls (${names}) with the same results ${this.#repeats} times in a row, so the agent was stopped.`,
        },
      };
    }
    if (this.#repeats === NOTICE_AT) return { kind: 'notice', text: NO_PROGRESS_NOTICE };
    return { kind: 'ok' };
  }
}

// A hash, not the text: results can be large, and only equality matters. Call ids differ on
// every turn, so they are left out.
function signatureOf(calls: readonly ToolCallPart[], results: readonly ToolResultPart[]): string {
  const hash = createHash('sha256');
  for (const call of calls) hash.update(`${call.toolName}\0${JSON.stringify(call.input)}\0`);
  for (const result of results) {
    hash.update(`${result.isError === true}\0${JSON.stringify(result.output)}\0`);
  }
  return hash.digest('base64');
}

/** The loop's step after a batch: the notice goes into the agent's context, a stop ends it. */
export function* watchProgress(
  run: RunState,
  calls: readonly ToolCallPart[],
  results: readonly ToolResultPart[],
): Generator<AgentEvent> {
  const verdict = run.progress.observe(calls, results);
  if (verdict.kind === 'notice') yield append(run, { role: 'user', content: verdict.text });
  if (verdict.kind === 'stop') run.stop = verdict.stop;
}
