// No-progress detection for every agent: the same tool calls with the same results, batch after
// batch, mean the agent is looping. The third such batch in a row puts a notice in its context;
// the fourth stops that agent alone as `no_progress` (its parent and siblings go on).
import { isDeepStrictEqual } from 'node:util';
import type { ToolCallPart, ToolResultPart } from '../core/messages.js';
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

/** One batch of tool calls with its results, as the conversation holds them. */
interface Batch {
  readonly calls: readonly ToolCallPart[];
  readonly results: readonly ToolResultPart[];
}

/** Counts identical batches in a row; one per agent run. */
export class ProgressWatch {
  /** The previous batch, by reference: the conversation keeps it anyway. */
  #last: Batch | undefined;
  #repeats = 0;

  /** Records one batch (its calls and their results) and says what follows from it. */
  observe(calls: readonly ToolCallPart[], results: readonly ToolResultPart[]): ProgressVerdict {
    if (calls.some((call) => WAITING_TOOLS.has(call.toolName))) {
      this.#last = undefined;
      this.#repeats = 0;
      return { kind: 'ok' };
    }
    const batch = { calls, results };
    this.#repeats = this.#last && sameBatch(batch, this.#last) ? this.#repeats + 1 : 1;
    this.#last = batch;
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

// The same calls (name and arguments) with the same results; call ids differ on every turn, so
// they are left out. Most batches differ from the one before in their first call.
function sameBatch(batch: Batch, before: Batch): boolean {
  if (batch.calls.length !== before.calls.length) return false;
  for (let index = 0; index < batch.calls.length; index++) {
    const call = batch.calls[index]!;
    const earlier = before.calls[index]!;
    const result = batch.results[index];
    const earlierResult = before.results[index];
    if (call.toolName !== earlier.toolName) return false;
    if (result?.output !== earlierResult?.output) return false;
    if ((result?.isError === true) !== (earlierResult?.isError === true)) return false;
    if (!isDeepStrictEqual(call.input, earlier.input)) return false;
  }
  return true;
}
