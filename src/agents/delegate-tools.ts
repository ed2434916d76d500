// delegate_to_<name>: the tools a definition's `agents: [...]` synthesizes (delegation as a
// tool call). Same execution path as the Agent tool; only the input is a task spec.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import { placementOf } from './placement.js';
import { runSubagent } from './run-subagent.js';
import type { Spawner } from './subagent-context.js';

export const taskSpecSchema = lazy(() =>
  z.object({
    instructions: z.string().min(1).describe('What the agent must do, self-contained.'),
    payload: z
      .unknown()
      .optional()
      .describe('Data the task works on, passed to the agent as JSON.'),
    expected_output: z.string().optional().describe('What the result must contain, and its shape.'),
    time_budget_ms: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Most milliseconds the agent may take; it then reports what it has.'),
  }),
);

/** Provider tool names allow letters, digits, `_` and `-`, up to 64 characters. */
export function delegateToolName(agentName: string): string {
  return `delegate_to_${agentName.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

export function createDelegateTool(spawner: Spawner, target: AgentDefinition): Tool {
  return defineTool({
    name: delegateToolName(target.name),
    description: `Delegates a task to the ${target.name} agent and returns its final report. ${target.description}`,
    get inputSchema() {
      return taskSpecSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.Delegate,
    spawnsAgents: true,
    isReadOnly: true,
    isConcurrencySafe: true,
    timeoutMs: Infinity,
    call(input, ctx) {
      return runSubagent(
        spawner,
        {
          definition: target,
          prompt: taskPrompt(input),
          description: firstLine(input.instructions),
          timeBudgetMs: input.time_budget_ms,
          forkContext: target.forkContext ?? false,
          background: target.background ?? false,
          ...placementOf(undefined, target),
          worktreeBase: target.worktreeBase,
        },
        ctx,
      );
    },
  });
}

function taskPrompt(spec: z.output<ReturnType<typeof taskSpecSchema>>): string {
  const sections = [spec.instructions.trim()];
  if (spec.payload !== undefined) {
    sections.push(`Payload:\n\`\`\`json\n${JSON.stringify(spec.payload, null, 2)}\n\`\`\``);
  }
  if (spec.expected_output) sections.push(`Expected output: ${spec.expected_output.trim()}`);
  return sections.join('\n\n');
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
