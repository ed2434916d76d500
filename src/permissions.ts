// `warren/permissions`: the policy behind the `permissions` option — modes, rules, the question
// asked of a person (`canUseTool`) and the store of their lasting answers.

export type {
  PermissionDecision,
  PermissionMode,
  PermissionPolicy,
  PermissionRequest,
} from './core/permission-policy.js';
export {
  type CanUseTool,
  createPermissionPolicy,
  type PermissionAnswer,
  type PermissionPolicyOptions,
  type PermissionPrompt,
  type RulePermissionPolicy,
} from './permissions/create-permission-policy.js';
export { DecisionStore } from './permissions/decision-store.js';
export { parsePermissionRule, parseRuleList } from './permissions/permission-rule.js';
