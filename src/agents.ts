// `warren/agents`: agent definitions from files and from code, the built-in ones, and the
// project's context (instructions, skills) an agent is told.

export { builtinAgents } from './definitions/builtin-agents.js';
export {
  type AgentDefinitionsResult,
  type LoadAgentDefinitionsOptions,
  loadAgentDefinitions,
} from './definitions/load-agent-definitions.js';
export {
  type AgentContext,
  ProjectContext,
  type ProjectContextOptions,
} from './prompt/project-context.js';
export type { PromptSection } from './prompt/prompt-section.js';
