// query(): the agent loop with sub-agents wired in. It adds the Agent tool (and a definition's
// delegate_to_<name> tools) to the main agent; every sub-agent then runs agentLoop() again.
import type {
  AgentDefinition,
  AgentDefinitionInput,
} from './agents/definitions/agent-definition.js';
import { resolveAgentDefinitions } from './agents/definitions/load-agent-definitions.js';
import { withEnvironment } from './agents/environment-prompt.js';
import { SpawnTools } from './agents/spawn-tools.js';
import { SubagentRuntime, type SubagentSettings } from './agents/subagent-runtime.js';
import { ConfigError } from './core/config-error.js';
import type { AgentEvent, RunResult } from './core/events.js';
import { type AgentLoopOptions, agentLoop } from './loop/agent-loop.js';
import { resolveModel } from './model/resolve-model.js';
import { createPermissionPolicy } from './permissions/create-permission-policy.js';
import { builtinTools } from './tools/builtin-tools.js';

export interface QueryOptions
  extends Omit<AgentLoopOptions, 'model'>,
    Omit<SubagentSettings, 'definitions'> {
  /** An AI SDK language model, or a warren model spec such as `anthropic:claude-sonnet-4-5`. */
  model: AgentLoopOptions['model'] | string;
  /**
   * Sub-agent definitions by name, on top of the built-in `general-purpose`, `explore` and
   * `plan` (as the Claude Agent SDK's `agents` option). Default tools: the built-ins.
   */
  agents?: Readonly<Record<string, AgentDefinitionInput>>;
  /** Already resolved definitions (from `loadAgentDefinitions`); used instead of `agents`. */
  definitions?: ReadonlyMap<string, AgentDefinition>;
  /** Run the main agent as this definition: its prompt, tools, model, turns and delegates. */
  agent?: string;
}

export interface QueryParams {
  prompt: string;
  options: QueryOptions;
}

/**
 * Runs an agent, and the sub-agents it starts, to the end. Yields every event of the tree as
 * it happens (children's events carry their own `agentId`, `parentId` and `depth`); returns
 * the main agent's result. Tools default to the built-ins: Read, Write, Edit, Glob, Grep, Bash.
 * Permissions default to the `default` mode with no way to ask: read-only calls run, others are
 * denied with a message; pass `permissions` (with `canUseTool`, or another mode) to allow more.
 * Unusable options (a broken definition) make the first `next()` reject.
 */
export function query({ prompt, options }: QueryParams): AsyncGenerator<AgentEvent, RunResult> {
  try {
    const definitions = options.definitions ?? resolveAgentDefinitions(options.agents ?? {});
    const spawn = new SpawnTools(new SubagentRuntime({ ...options, definitions }));
    // Without a policy, read-only calls run and the rest are denied, as in print mode.
    const permissions = options.permissions ?? createPermissionPolicy({ mode: 'default' });
    const model =
      typeof options.model === 'string'
        ? resolveModel(options.model, { baseUrl: options.baseUrl })
        : options.model;
    // The loop's own generator, not a wrapper: every event of the tree passes through here.
    return agentLoop({
      prompt,
      options: mainAgentOptions({ ...options, model, permissions }, spawn),
    });
  } catch (error) {
    return rejecting(error);
  }
}

// biome-ignore lint/correctness/useYield: it only rejects, on the first next(), like the loop would.
async function* rejecting(error: unknown): AsyncGenerator<never, never> {
  throw error;
}

function mainAgentOptions(
  options: QueryOptions & Pick<AgentLoopOptions, 'model'>,
  spawn: SpawnTools,
): AgentLoopOptions {
  const tools = options.tools ?? builtinTools();
  const cwd = options.cwd ?? process.cwd();
  if (options.agent === undefined) {
    const spawnTools = spawn.spawnTools({
      depth: 0,
      definition: undefined,
      parentTools: 'root',
      mayUseAgent: true,
    });
    return { ...options, cwd, tools: [...tools, ...spawnTools] };
  }
  const definition = spawn.runtime.findDefinition(options.agent);
  if (!definition) {
    const names = [...spawn.runtime.definitions.keys()].join(', ');
    throw new ConfigError(`--agent ${options.agent}`, 'no such agent', `use one of: ${names}`);
  }
  const {
    tools: mainTools,
    denyRules,
    askRules,
  } = spawn.toolsFor({
    depth: 0,
    definition,
    parentTools: tools,
    root: true,
  });
  return {
    ...options,
    cwd,
    tools: mainTools,
    permissions: options.permissions?.derive
      ? options.permissions.derive({
          mode: definition.permissionMode,
          deny: denyRules,
          ask: askRules,
        })
      : options.permissions,
    systemPrompt: withEnvironment(definition.prompt, { cwd }),
    maxTurns: options.maxTurns ?? definition.maxTurns,
    timeBudgetMs: options.timeBudgetMs ?? definition.timeBudgetMs,
    tokenBudget: options.tokenBudget ?? definition.tokenBudget,
    agentType: definition.name,
    description: options.description ?? definition.description,
  };
}
