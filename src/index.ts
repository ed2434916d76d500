// warren's public API: the loop with sub-agents, the types at its boundaries, the built-in
// tools and the pieces a host program assembles a run from. Testing helpers: `warren/testing`.

export type {
  AgentDefinition,
  AgentDefinitionInput,
} from './agents/definitions/agent-definition.js';
export { builtinAgents } from './agents/definitions/builtin-agents.js';
export { defineAgent } from './agents/definitions/define-agent.js';
export {
  type AgentDefinitionsResult,
  type LoadAgentDefinitionsOptions,
  loadAgentDefinitions,
  resolveAgentDefinitions,
} from './agents/definitions/load-agent-definitions.js';
export type { OutputSchemaInput } from './agents/definitions/output-schema.js';
export {
  type AgentContext,
  ProjectContext,
  type ProjectContextOptions,
} from './agents/project-context.js';
export type { PromptSection } from './agents/prompt-section.js';
export type { RemotePort } from './agents/remote-port.js';
export { AgentStop } from './core/agent-stop.js';
export { Budget, type BudgetKind, type BudgetLimits } from './core/budget.js';
export { ConfigError } from './core/config-error.js';
export type {
  AgentEvent,
  AgentEventOf,
  AgentEventType,
  AgentRef,
  AgentStatus,
  ResultSubtype,
  RunResult,
  TaskEnding,
  TaskEventFields,
  WorktreeReport,
} from './core/events.js';
export type {
  HandoffVerdict,
  HookAgent,
  HookEvent,
  HookEventName,
  HookOutcome,
  HookRunner,
} from './core/hook-runner.js';
export type { Inbox, InboxDelivery, InboxOptions, InboxState } from './core/inbox.js';
export type { InheritedOptions, RetryOptions } from './core/inherited-options.js';
export type {
  AssistantMessage,
  Message,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './core/messages.js';
export type { OutputCheck, OutputSchema } from './core/output-schema.js';
export type {
  PermissionDecision,
  PermissionMode,
  PermissionPolicy,
  PermissionRequest,
} from './core/permission-policy.js';
export type {
  RemoteChildSpec,
  RemoteEnding,
  RemoteExecutor,
  RemoteProgress,
} from './core/remote-executor.js';
export type { RunContext } from './core/run-context.js';
export type { RunIds } from './core/run-ids.js';
export { directSteps, type LoopStep, type StepRunner } from './core/step-runner.js';
export type {
  TaskControl,
  TaskExecutor,
  TaskKind,
  TaskMeta,
  TaskOutcome,
  TaskProgress,
  TaskRecord,
  TaskStatus,
} from './core/tasks.js';
export type { TodoItem, TodoStatus } from './core/todo-list.js';
export {
  type AgentIdentity,
  defineTool,
  FatalToolError,
  type Tool,
  type ToolContext,
  type ToolOutput,
} from './core/tool.js';
export { addUsage, cacheHitRatio, emptyUsage, type Usage } from './core/usage.js';
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
export { type AgentLoopOptions, type AgentLoopParams, agentLoop } from './loop/agent-loop.js';
export { isMcpTool, type McpTool } from './mcp/mcp-tool.js';
export type {
  McpInProcessServerConfig,
  McpRemoteServerConfig,
  McpServerConfig,
  McpServerInput,
  McpServerObject,
  McpStdioServerConfig,
} from './mcp/server-config.js';
export { loadPriceTable, priceFilePath } from './model/price-file.js';
export { BUILTIN_PRICES, type ModelPrice, type PriceTable, priceOf } from './model/pricing.js';
export { resolveModel } from './model/resolve-model.js';
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
export {
  type Query,
  type QueryOptions,
  type QueryParams,
  type QueryTasks,
  query,
  type StructuredOutputOf,
} from './query.js';
export { loadSession, readTranscript } from './session/read-transcript.js';
export { TranscriptWriter } from './session/transcript-writer.js';
export {
  TaskManager,
  type TaskManagerOptions,
  type WaitOptions,
} from './tasks/task-manager.js';
export { TaskStore } from './tasks/task-store.js';
export { type AgentSummary, AgentTree } from './telemetry/agent-tree.js';
export { bashTool, readOnlyBashTool } from './tools/bash.js';
export { builtinTools } from './tools/builtin-tools.js';
export { editTool } from './tools/edit.js';
export { FileStateCache } from './tools/file-state.js';
export { globTool } from './tools/glob.js';
export { grepTool } from './tools/grep.js';
export { readTool } from './tools/read.js';
export { isReadOnlyCommand } from './tools/read-only-command.js';
export { todoWriteTool } from './tools/todo-write.js';
export { webFetchTool } from './tools/web-fetch.js';
export { writeTool } from './tools/write.js';
