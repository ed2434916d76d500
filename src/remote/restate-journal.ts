// The loop's StepRunner on Restate: each model call and tool call a journaled `ctx.run`, given
// back on a replay instead of run again. The SDK takes one await at a time, each one a replay can
// answer, so all journal awaits go through one pump that races them with the cancellation.

import * as restate from '@restatedev/restate-sdk';
import { messageOf } from '../core/error-message.js';
import { redactJson, secretValuesFromEnv } from '../core/secret-redaction.js';
import type { LoopStep, StepRunner } from '../core/step-runner.js';
import { FatalToolError } from '../core/tool.js';

/** A step's outcome as the journal keeps it: JSON, the failure as name and message. */
export type JournaledOutcome =
  | { ok: true; value: unknown; at: number }
  | { ok: false; error: { name: string; message: string; fatal?: true }; at: number };

export interface JournalHooks {
  /** Restate asked to cancel the invocation: stop the run (it still journals how it ended). */
  onCancel(): void;
  /**
   * A loop step's outcome, on the first run and on a replay alike. Steps of one batch of tool
   * calls may end in any order: only what does not depend on that order may be journaled here.
   */
  onStep?(step: LoopStep, outcome: JournaledOutcome): void;
}

interface Pending {
  promise: restate.RestatePromise<Settled>;
  settle(settled: Settled): void;
}

type Settled = { id: number; value?: unknown; failure?: restate.TerminalError };

type CancellableContext = restate.WorkflowContext & restate.internal.ContextInternal;

export interface JournalOptions {
  /** Whose secret-looking variables are redacted from the journal; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
}

export class RestateJournal implements StepRunner {
  readonly #ctx: CancellableContext;
  readonly #hooks: JournalHooks;
  readonly #secrets: readonly string[];
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #pumping = false;

  constructor(ctx: restate.WorkflowContext, hooks: JournalHooks, options: JournalOptions = {}) {
    this.#ctx = ctx as CancellableContext;
    this.#hooks = hooks;
    this.#secrets = secretValuesFromEnv(options.env ?? process.env);
  }

  /** A value with the secrets a journal must not keep redacted: for what the workflow returns. */
  redact<T>(value: T): T {
    return redactJson(value, this.#secrets);
  }

  /** A loop step: its work runs once; its outcome is journaled and replayed. */
  async run<T>(step: LoopStep, work: () => Promise<T>): Promise<T> {
    const outcome = await this.side(step.name, work);
    this.#hooks.onStep?.(step, outcome);
    if (outcome.ok) return outcome.value as T;
    throw rebuild(outcome.error);
  }

  /**
   * A journaled step of the worker's own (a worktree made, a clock read): the outcome, failure
   * included, the same on every replay.
   */
  async side<T>(name: string, work: () => Promise<T> | T): Promise<JournaledOutcome> {
    // The journal keeps the outcome with its secrets redacted, as a transcript does; the run
    // that did the work goes on with what it got, and only a replay sees the redacted copy.
    let live: JournaledOutcome | undefined;
    const journaled = this.#ctx.run(name, async (): Promise<JournaledOutcome> => {
      try {
        const value = await work();
        // What the journal keeps is JSON; `undefined` would not survive it.
        live = { ok: true, value: value === undefined ? null : value, at: Date.now() };
      } catch (error) {
        live = { ok: false, error: describe(error), at: Date.now() };
      }
      return this.redact(live);
    });
    const kept = (await this.await(journaled)) as JournaledOutcome;
    return live ?? kept;
  }

  /** Awaits any journal promise (a durable promise peeked, a call's answer) through the pump. */
  await<T>(promise: restate.RestatePromise<T>): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, {
        promise: promise.map((value, failure) => ({ id, value, failure })),
        settle: ({ value, failure }) => (failure ? reject(failure) : resolve(value as T)),
      });
      // Started on the next turn of the event loop: the steps of one batch of tool calls, made
      // together, are raced together, the same way on every replay.
      if (!this.#pumping) {
        this.#pumping = true;
        setImmediate(() => void this.#pump());
      }
    });
  }

  async #pump(): Promise<void> {
    try {
      while (this.#pending.size > 0) {
        const racing = [...this.#pending.values()].map((pending) => pending.promise);
        const cancelled = this.#ctx.cancellation().map((): Settled => ({ id: -1 }));
        const settled = await restate.RestatePromise.race([...racing, cancelled]);
        if (settled.id === -1) {
          this.#hooks.onCancel();
          continue;
        }
        const pending = this.#pending.get(settled.id);
        this.#pending.delete(settled.id);
        pending?.settle(settled);
        // Let the caller go on (and add what it does next) before the next race.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.#pumping = false;
    }
  }
}

function describe(error: unknown): { name: string; message: string; fatal?: true } {
  const name = error instanceof Error ? error.name : 'Error';
  const message = messageOf(error);
  return FatalToolError.isInstance(error) ? { name, message, fatal: true } : { name, message };
}

/** The failure as the loop first saw it: same name and message, a fatal one still fatal. */
function rebuild(error: { name: string; message: string; fatal?: true }): Error {
  if (error.fatal) return Object.assign(new FatalToolError(error.message), { name: error.name });
  return Object.assign(new Error(error.message), { name: error.name });
}
