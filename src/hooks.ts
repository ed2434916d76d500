// `warren/hooks`: the `hooks` option's settings and callbacks, the input each hook event gets
// and the output it may give, and the check a child's hand-off goes through.

export type {
  HandoffVerdict,
  HookAgent,
  HookEvent,
  HookEventName,
  HookOutcome,
  HookRunner,
} from './core/hook-runner.js';
export {
  type HandoffCheck,
  type HandoffInput,
  neutraliseHandoff,
} from './hooks/handoff-check.js';
export type {
  HookInput,
  NotificationInput,
  PostToolUseFailureInput,
  PostToolUseInput,
  PreToolUseInput,
  SessionEndInput,
  SessionStartInput,
  StopInput,
  SubagentStartInput,
  SubagentStopInput,
  UserPromptSubmitInput,
} from './hooks/hook-input.js';
export type { HookJsonOutput } from './hooks/hook-output.js';
export type {
  CommandHook,
  HookCallback,
  HookMatcher,
  HookSettings,
} from './hooks/hook-settings.js';
