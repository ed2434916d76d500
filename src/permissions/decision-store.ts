// The "always allow" decisions a person made during one run, shared by every agent in the tree.
import type { PermissionRule } from '../core/permission-policy.js';
import { isAllowedByRules, type PermissionTarget, parsePermissionRule } from './permission-rule.js';

/** Where remembered rules say they came from, in messages and reports. */
const REMEMBERED = 'a decision made during this run';

/**
 * One per run. Contract: a parent and all its sub-agents hold the same instance, passed by
 * reference and never copied, so "always allow X" given in any agent's prompt holds at once in
 * every other agent of the tree, the root included. Nothing is persisted.
 */
export class DecisionStore {
  readonly #rules: PermissionRule[] = [];

  /**
   * Remembers a rule such as `Bash(npm test:*)`; a repeat is ignored.
   * @throws ConfigError when the rule does not parse.
   */
  remember(rule: string): PermissionRule {
    const parsed = parsePermissionRule(rule, REMEMBERED);
    const known = this.#rules.find((existing) => existing.text === parsed.text);
    if (known) return known;
    this.#rules.push(parsed);
    return parsed;
  }

  /**
   * Whether a remembered rule allows the call, with the same matching as allow rules; only the
   * rules `usable` accepts count (a protected path needs a rule that names it).
   */
  allows(
    target: PermissionTarget,
    usable: (rule: PermissionRule) => boolean = () => true,
  ): boolean {
    return isAllowedByRules(this.#rules.filter(usable), target);
  }

  /** The remembered rules, oldest first, for reports. */
  list(): readonly string[] {
    return this.#rules.map((rule) => rule.text);
  }
}
