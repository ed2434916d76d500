// The logical jobs every adapter runs, in one place, so prompts, tool names and tool results
// are identical across adapters; and the checks of what a finished job must have produced.
//
// The mock LLM keys its behaviour on the ROLE:<name> marker in a system prompt, on a sub-agent
// tool named `Agent` or `run_child_agent`, and on a child tool named exactly `lookup`.

/** Fan-out job: the parent starts N children at once, each child takes K model turns. */
export const PARENT_INSTRUCTIONS =
  'ROLE:parent You are a coordinator. Split the job into independent sub-tasks and start one ' +
  'child agent per sub-task, all in parallel. When every result is back, answer with a short summary.';
export const CHILD_INSTRUCTIONS =
  'ROLE:child You are a researcher working on one sub-task. Use the lookup tool as often as ' +
  'needed, then answer with a short summary of what you found.';
export const PARENT_PROMPT = 'Research every topic on the list and give me a combined report.';

/** The sub-agent definition name the parent's Agent calls ask for (`subagent_type`). */
export const CHILD_AGENT_TYPE = 'child';
export const CHILD_AGENT_DESCRIPTION = 'Researcher for one sub-task; has the lookup tool.';

export const SUBAGENT_TOOL_NAME = 'run_child_agent';
export const SUBAGENT_TOOL_DESCRIPTION =
  'Run a child research agent on one sub-task and return its summary.';
export const LOOKUP_TOOL_NAME = 'lookup';
export const LOOKUP_TOOL_DESCRIPTION =
  'Look up a key in the knowledge base and return the stored value.';
export const LOOKUP_RESULT = 'value: 42 (source: kb)';

/** JSON schemas, for adapters that take raw JSON schema. */
export const TASK_SCHEMA = {
  type: 'object',
  properties: { task: { type: 'string', description: 'The sub-task to work on.' } },
  required: ['task'],
  additionalProperties: false,
};
export const LOOKUP_SCHEMA = {
  type: 'object',
  properties: { key: { type: 'string', description: 'The key to look up.' } },
  required: ['key'],
  additionalProperties: false,
};

/** Exploration job (context scenario): one agent reads every file, or hands them to children. */
export const READER_INSTRUCTIONS =
  'ROLE:reader You answer questions about a codebase. Read the files you need with the Read ' +
  'tool, then answer.';
export const DELEGATOR_INSTRUCTIONS =
  'ROLE:delegator You answer questions about a codebase. Hand the reading to explore agents ' +
  'with the Agent tool, several in parallel, then answer from their reports.';
export const EXPLORATION_PROMPT =
  'Go through every source file of this project and tell me what each one defines.';
/** How many explore children the delegating parent starts. */
export const EXPLORE_CHILDREN = 4;

/**
 * Checks the parent's final answer ("PARENT_DONE results=N ok=M", or the READER_/DELEGATOR_
 * variants). Returns null when it is what we expect, else a sentence saying what is wrong.
 */
export function checkFinalAnswer(text, { marker = 'PARENT_DONE', results }) {
  const match = new RegExp(`${marker} results=(\\d+) ok=(\\d+)`).exec(String(text ?? ''));
  if (!match) {
    return `the final answer is not the mock's ${marker} line: ${JSON.stringify(String(text).slice(0, 200))}`;
  }
  const [seen, ok] = [Number(match[1]), Number(match[2])];
  if (seen !== results || ok !== results) {
    return `the final answer says results=${seen} ok=${ok}, expected ${results}/${results}`;
  }
  return null;
}
