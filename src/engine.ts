// `warren/engine`: the parts a runtime is built from, for hosts that drive the loop themselves or
// run it durably — the loop, step runners, inboxes, budgets, task executors and remote ports.

export type { RemotePort } from './agents/remote-port.js';
export { AgentStop } from './core/agent-stop.js';
export { Budget, type BudgetKind, type BudgetLimits } from './core/budget.js';
export type { Inbox, InboxDelivery, InboxOptions, InboxState } from './core/inbox.js';
export type { InheritedOptions, RetryOptions } from './core/inherited-options.js';
export type { OutputCheck, OutputSchema } from './core/output-schema.js';
export type {
  RemoteChildSpec,
  RemoteEnding,
  RemoteExecutor,
  RemoteProgress,
} from './core/remote-executor.js';
export type { RunContext } from './core/run-context.js';
export type { RunIds } from './core/run-ids.js';
export { directSteps, type LoopStep, type StepRunner } from './core/step-runner.js';
export type { TaskControl, TaskExecutor } from './core/tasks.js';
export { type AgentLoopOptions, type AgentLoopParams, agentLoop } from './loop/agent-loop.js';
