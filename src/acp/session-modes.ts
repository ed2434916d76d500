// The permission modes as ACP session modes, and a session policy whose mode the client may
// switch between prompts or mid-run: the main agent's next call is decided in the new mode, and
// children started after it derive from it (a running child keeps the mode it started with).
import type { SessionModeState } from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../core/permission-policy.js';
import {
  createPermissionPolicy,
  PERMISSION_MODES,
  type RulePermissionPolicy,
} from '../permissions/create-permission-policy.js';
import type { CanUseTool } from '../permissions/permission-prompt.js';

const DESCRIPTIONS: Readonly<Record<PermissionMode, string>> = {
  plan: 'Read-only: look and plan, change nothing',
  default: 'Ask before edits and commands that change things',
  acceptEdits: 'Edit files in the project without asking; ask before other commands',
  bypassPermissions: 'Run everything without asking (deny rules still apply)',
};

export function isPermissionMode(id: string): id is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(id);
}

export function modeState(current: PermissionMode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: PERMISSION_MODES.map((id) => ({ id, name: id, description: DESCRIPTIONS[id] })),
  };
}

/** A policy that is `base` in whichever mode was set last; the decision store stays one. */
export class SwitchablePolicy {
  #current: RulePermissionPolicy;
  readonly #base: RulePermissionPolicy;
  readonly #canUseTool: CanUseTool | undefined;
  readonly policy: RulePermissionPolicy;

  constructor(base: RulePermissionPolicy, canUseTool: CanUseTool | undefined) {
    this.#base = base;
    this.#current = base;
    this.#canUseTool = canUseTool;
    const self = this;
    this.policy = {
      get mode() {
        return self.#current.mode;
      },
      allow: base.allow,
      deny: base.deny,
      ask: base.ask,
      store: base.store,
      decide: (request) => self.#current.decide(request),
      confirm: (request, reason) =>
        self.#current.confirm?.(request, reason) ?? Promise.resolve(undefined),
      derive: (options) => self.#current.derive(options),
    };
  }

  get mode(): PermissionMode {
    return this.#current.mode;
  }

  setMode(mode: PermissionMode): void {
    if (mode === this.#current.mode) return;
    this.#current =
      mode === this.#base.mode
        ? this.#base
        : createPermissionPolicy({
            mode,
            allow: this.#base.allow,
            deny: this.#base.deny,
            ask: this.#base.ask,
            store: this.#base.store,
            canUseTool: this.#canUseTool,
          });
  }
}
