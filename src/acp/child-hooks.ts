// The hooks of a `kind: acp` child at the two ends of its run, as a local child's loop runs them:
// SubagentStart adds context to its prompt; SubagentStop may send it back to work
// (another prompt in the same ACP session), make its failure fatal, or judge its handoff.
import type { AgentStatus } from '../core/events.js';
import type { HandoffVerdict, HookRunner } from '../core/hook-runner.js';
import { type LifecycleFacts, promptHooks, stopHooks } from '../loop/lifecycle-hooks.js';

export class ChildHooks {
  readonly #hooks: HookRunner | undefined;
  readonly #facts: LifecycleFacts;
  readonly #warn: (message: string) => void;
  #continuations = 0;
  handoff: HandoffVerdict | undefined;
  /** Set when a SubagentStop hook made the child's failure end the whole run. */
  fatal: string | undefined;

  constructor(
    hooks: HookRunner | undefined,
    facts: LifecycleFacts,
    warn: (message: string) => void,
  ) {
    this.#hooks = hooks;
    this.#facts = facts;
    this.#warn = warn;
  }

  /** The prompt the agent is sent (with the hooks' context), or why a hook refused it. */
  async admit(prompt: string): Promise<{ prompt: string } | { refused: string }> {
    if (!this.#hooks) return { prompt };
    const admitted = await promptHooks(this.#hooks, this.#facts, prompt);
    for (const warning of admitted.warnings) this.#warn(warning);
    if (admitted.prompt === undefined) return { refused: admitted.refused ?? 'refused' };
    return { prompt: admitted.prompt };
  }

  /** The agent would end: the instruction a hook sends it back to work with, if any. */
  async stop(
    status: AgentStatus,
    lastText: string,
    error: string | undefined,
  ): Promise<string | undefined> {
    if (!this.#hooks || status === 'cancelled') return undefined;
    const decision = await stopHooks(this.#hooks, this.#facts, {
      lastAssistantMessage: lastText,
      status,
      error,
      continuations: this.#continuations,
    });
    for (const warning of decision.warnings) this.#warn(warning);
    this.handoff = decision.handoff;
    if (decision.fatal !== undefined) this.fatal = decision.fatal;
    if (decision.goOn !== undefined) this.#continuations++;
    return decision.goOn;
  }
}
