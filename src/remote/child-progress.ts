// How far a remote child got (core's RemoteProgress), kept from its journaled steps only, so a
// replay writes the same workflow state as the first run did: counts in the order steps were
// made, never in the order a batch of tool calls happened to finish.

import { textOf } from '../core/messages.js';
import { type RemoteProgress, startingProgress } from '../core/remote-executor.js';
import type { LoopStep } from '../core/step-runner.js';
import { budgetTokens } from '../core/usage.js';
import type { ModelTurn } from '../model/model-turn.js';
import type { JournaledOutcome } from './restate-journal.js';

/** What the latest reply shows of itself in progress: enough for TaskOutput, not a transcript. */
const LAST_TEXT_CHARS = 4000;

export class ChildProgress {
  readonly #progress: RemoteProgress = startingProgress();

  /** A step is made (before it runs): tool calls count in the order the model wrote them. */
  started(step: LoopStep): void {
    if (step.kind !== 'tool') return;
    this.#progress.toolCalls++;
    this.#progress.lastToolName = step.name.split(':')[1] ?? null;
  }

  /** A model step ended (on the first run or a replay). */
  modelEnded(outcome: JournaledOutcome): void {
    this.#progress.turns++;
    this.#progress.lastActivityAt = outcome.at;
    if (!outcome.ok) return;
    const turn = outcome.value as ModelTurn;
    this.#progress.tokens += budgetTokens(turn.usage);
    const text = textOf(turn.message);
    if (text) this.#progress.lastText = text.slice(-LAST_TEXT_CHARS);
  }

  ended(): RemoteProgress {
    this.#progress.state = 'ended';
    return this.snapshot();
  }

  snapshot(): RemoteProgress {
    return { ...this.#progress };
  }
}
