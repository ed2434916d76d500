// What a run's tools that start agents see of it (core's RunContext), as a class: the object a
// parent's thousand children each read stays in V8's fast mode, where an object literal with
// getters is a dictionary. The two live fields are getters on the prototype.
import type { Budget } from '../core/budget.js';
import { type InheritedOptions, inheritedOptions } from '../core/inherited-options.js';
import type { Message } from '../core/messages.js';
import type { PermissionPolicy } from '../core/permission-policy.js';
import type { RunContext } from '../core/run-context.js';
import type { Tool } from '../core/tool.js';
import type { RunState } from './run-state.js';

export class RunView implements RunContext {
  readonly agentPath: string;
  readonly inherited: Readonly<InheritedOptions>;
  readonly model: RunContext['model'];
  readonly tools: readonly Tool[];
  readonly shownTools: readonly Tool[];
  readonly budget: Budget;
  readonly permissions: PermissionPolicy | undefined;
  readonly messages: readonly Message[];
  readonly #run: RunState;

  constructor(run: RunState, tools: readonly Tool[], shownTools: readonly Tool[]) {
    this.#run = run;
    this.agentPath = run.path;
    this.inherited = inheritedOptions(run.options);
    this.model = run.model;
    this.tools = tools;
    this.shownTools = shownTools;
    this.budget = run.budget;
    this.permissions = run.options.permissions;
    this.messages = run.messages;
  }

  /** The current turn's: an interrupt gives the next turn a new one. */
  get cancelSignal(): AbortSignal {
    return this.#run.turn.cancel;
  }

  get turnsLeft(): number {
    return (this.#run.options.maxTurns ?? Infinity) - this.#run.numTurns;
  }
}
