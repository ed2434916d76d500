// `warren/agents`: agent definitions from files and from code, the built-in ones, and the
// project's context (instructions, skills) an agent is told.

export { builtinAgents } from './agents/definitions/builtin-agents.js';
export {
  type AgentDefinitionsResult,
  type LoadAgentDefinitionsOptions,
  loadAgentDefinitions,
} from './agents/definitions/load-agent-definitions.js';
export {
  type AgentContext,
  ProjectContext,
  type ProjectContextOptions,
} from './agents/project-context.js';
export type { PromptSection } from './agents/prompt-section.js';
