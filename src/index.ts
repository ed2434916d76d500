// `warren`: what most programs need — query() and its options, tools and agents defined in
// code, the events and messages a run yields, its result and errors, and resolveModel. The rest
// lives in subpath entries (warren/tools, warren/permissions, warren/engine, …: docs/library.md).

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
  AssistantMessage,
  Message,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './core/messages.js';
export {
  type AgentIdentity,
  defineTool,
  FatalToolError,
  type Tool,
  type ToolContext,
  type ToolOutput,
} from './core/tool.js';
export type { Usage } from './core/usage.js';
export type {
  AgentDefinition,
  AgentDefinitionInput,
} from './definitions/agent-definition.js';
export { defineAgent } from './definitions/define-agent.js';
// Definitions resolved once and passed to many query() calls (the shared bench does so).
export { resolveAgentDefinitions } from './definitions/load-agent-definitions.js';
export type { OutputSchemaInput } from './definitions/output-schema.js';
export { resolveModel } from './model/resolve-model.js';
export {
  type Query,
  type QueryOptions,
  type QueryParams,
  type QueryTasks,
  query,
  type StructuredOutputOf,
} from './query.js';
