// The Agent tool: the model starts a sub-agent by calling it. Its handler runs the same loop
// again with the chosen definition (run-subagent.ts); to the loop it is a tool like any other.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool, toolError } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { EFFORTS } from '../model/model-settings.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import { placementOf } from './placement.js';
import { runSubagent } from './run-subagent.js';
import type { Spawner } from './subagent-context.js';

export type AgentTool = Tool & {
  /** The sub-agent types this tool may start; undefined means any. */
  readonly spawnableTypes: readonly string[] | undefined;
};

export function isAgentTool(tool: Tool): tool is AgentTool {
  return tool.name === 'Agent' && 'spawnableTypes' in tool;
}

export const agentInputSchema = lazy(() =>
  z.object({
    description: z
      .string()
      .min(1)
      .describe('A short (3-5 word) description of the task, shown to the user.'),
    prompt: z
      .string()
      .min(1)
      .describe(
        'The task for the agent. It sees nothing of your conversation, so say everything it needs: the goal, what you already know, where to look, and what to report back.',
      ),
    subagent_type: z
      .string()
      .optional()
      .describe(
        'Which agent to start (default "general-purpose"); see the list in the description.',
      ),
    model: z
      .string()
      .optional()
      .describe(
        'A model for this agent as provider:model, or "inherit"; default: the agent\'s own.',
      ),
    effort: z
      .enum(EFFORTS)
      .optional()
      .describe(
        "How hard the agent's model reasons: low for quick lookups, high for hard problems; default: the agent's own.",
      ),
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" and "-", at most 64')
      .optional()
      .describe(
        'A name for the agent, unique among running agents, to address it with SendMessage later.',
      ),
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        'Start it in the background and go on at once; you are notified with its result when it finishes.',
      ),
    isolation: z
      .enum(['worktree', 'remote'])
      .optional()
      .describe(
        '"worktree": the agent works in a git worktree of its own, on a new branch from your HEAD, so it can change files without touching your checkout; its changes are kept on that branch for review. "remote": it runs on a worker machine (durably: it survives a crash of that machine); its tools work on the worker\'s files.',
      ),
    worktreeBase: z
      .string()
      .min(1)
      .optional()
      .describe(
        'With isolation "worktree": what the branch starts from, "head" (default) or a branch, tag or commit.',
      ),
    forkContext: z
      .union([z.boolean(), z.number().int().positive()])
      .optional()
      .describe(
        'What of your conversation the agent starts with: false (default) nothing, only its prompt; true all of it; a number N your last N turns (a turn is a user message and everything after it). Forked agents start cheaper: they reuse your cached context.',
      ),
  }),
);

/** An Agent tool that may start `types` (all definitions when undefined). */
export function createAgentTool(spawner: Spawner, types: readonly string[] | undefined): AgentTool {
  const { runtime } = spawner;
  const available = [...runtime.definitions.values()].filter(
    (definition) =>
      !types || types.some((type) => type.toLowerCase() === definition.name.toLowerCase()),
  );
  const tool = defineTool({
    name: 'Agent',
    description: describeAgentTool(available, runtime.background !== undefined),
    get inputSchema() {
      return agentInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.Agent,
    spawnsAgents: true,
    // Starting an agent changes nothing by itself; each of the child's calls is checked.
    isReadOnly: true,
    isConcurrencySafe: true,
    // A child is bounded by its own turns and budgets, not by the loop's tool timeout.
    timeoutMs: Infinity,
    permissionSubject: (input) => input.subagent_type ?? 'general-purpose',
    async call(input, ctx) {
      const type = input.subagent_type ?? 'general-purpose';
      const definition = runtime.findDefinition(type);
      const allowed = definition && available.includes(definition);
      if (!definition || !allowed) {
        const names =
          available
            .map((candidate) => candidate.name)
            .sort()
            .join(', ') || 'none';
        return toolError(`Unknown agent type "${type}". Available types: ${names}.`);
      }
      return runSubagent(
        spawner,
        {
          definition,
          prompt: input.prompt,
          description: input.description,
          model: input.model,
          ...(input.effort !== undefined && { effort: input.effort }),
          forkContext: input.forkContext ?? definition.forkContext ?? false,
          name: input.name,
          // A `background: true` definition always runs in the background.
          background: definition.background === true || input.run_in_background === true,
          ...placementOf(input.isolation, definition),
          worktreeBase: input.worktreeBase ?? definition.worktreeBase,
        },
        ctx,
      );
    },
  });
  return Object.assign(tool, { spawnableTypes: types });
}

function describeAgentTool(available: readonly AgentDefinition[], background: boolean): string {
  const list = available
    .map((definition) => `- ${definition.name}: ${clip(definition.description, 1000)}`)
    .join('\n');
  return `Starts a sub-agent to carry out a task on its own and returns its final report.

The agent starts with a fresh conversation and only the tools its type allows; it sees nothing of yours (unless you pass forkContext), so the prompt must say everything it needs. Only its final message comes back to you, which keeps your context small: use it for searches across many files, self-contained side tasks, and work you can hand off. Start several agents in one message to run them in parallel. Do not use it for a single file read or a one-line search; call those tools yourself.${background ? BACKGROUND_USAGE : ''}

Agent types (subagent_type):
${list || '(none)'}`;
}

const BACKGROUND_USAGE = `

With run_in_background the call returns a task id at once and the agent works while you go on; its result arrives later as a <task-notification> message. Never guess a result you have not received: end your turn to wait for it, or use TaskOutput.`;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
