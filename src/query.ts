// query(): the agent loop with sub-agents and hooks wired in. It adds the Agent tool (and a
// definition's delegate_to_<name> tools) to the main agent; every sub-agent then runs agentLoop()
// again. With hooks, the session's SessionStart and SessionEnd hooks run around the main agent.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { agentHookRunner, anyDefinitionHooks } from './agents/agent-hooks.js';
import type {
  AgentDefinition,
  AgentDefinitionInput,
} from './agents/definitions/agent-definition.js';
import { resolveAgentDefinitions } from './agents/definitions/load-agent-definitions.js';
import { compileOutputSchema, type OutputSchemaInput } from './agents/definitions/output-schema.js';
import { withEnvironment } from './agents/environment-prompt.js';
import { SpawnTools } from './agents/spawn-tools.js';
import { SubagentRuntime, type SubagentSettings } from './agents/subagent-runtime.js';
import { ConfigError } from './core/config-error.js';
import type { AgentEvent, AgentRef, RunResult } from './core/events.js';
import {
  type CompiledHooks,
  compileHookSettings,
  formatHookPath,
  type HookSettings,
} from './hooks/hook-settings.js';
import { SessionHooks } from './hooks/session-hooks.js';
import { type AgentLoopOptions, agentLoop } from './loop/agent-loop.js';
import { modelName } from './model/pricing.js';
import { resolveModel } from './model/resolve-model.js';
import { createPermissionPolicy } from './permissions/create-permission-policy.js';
import { builtinTools } from './tools/builtin-tools.js';

export interface QueryOptions
  extends Omit<AgentLoopOptions, 'model' | 'hooks' | 'outputSchema'>,
    Omit<SubagentSettings, 'definitions' | 'sessionHooks'> {
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
  /**
   * Hooks for every agent of the run, in Claude Code's settings shape; each entry of `hooks` is
   * a callback (`async (input, toolUseId, { signal }) => ({ … })`) or a command. See docs/hooks.md.
   */
  hooks?: HookSettings;
  /** Hooks already checked, from settings files (the CLI reads them); they run before `hooks`. */
  settingsHooks?: readonly CompiledHooks[];
  /** Reported to hooks as `session_id`. Default: a new id per query. */
  sessionId?: string;
  /**
   * The main agent must finish with a value this schema accepts (zod, or JSON Schema of an
   * object); the result's `structuredOutput` holds it, typed for a zod schema.
   */
  outputSchema?: OutputSchemaInput;
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
 * `hooks` run for every agent of the tree (docs/hooks.md); with an `outputSchema` (or an `agent`
 * whose definition has one) the result's `structuredOutput` is typed by a zod schema.
 * Unusable options (a broken definition) make the first `next()` reject.
 */
export function query<const Options extends QueryOptions>(params: {
  prompt: string;
  options: Options;
}): AsyncGenerator<AgentEvent, RunResult & { structuredOutput?: StructuredOutputOf<Options> }>;
export function query({ prompt, options }: QueryParams): AsyncGenerator<AgentEvent, RunResult> {
  try {
    const definitions = options.definitions ?? resolveAgentDefinitions(options.agents ?? {});
    const agentId = options.agentId ?? `main_${randomUUID().slice(0, 8)}`;
    const session = sessionHooksOf({ ...options, agentId }, definitions.values());
    const spawn = new SpawnTools(
      new SubagentRuntime({ ...options, definitions, sessionHooks: session?.hooks }),
    );
    // Without a policy, read-only calls run and the rest are denied, as in print mode.
    const permissions = options.permissions ?? createPermissionPolicy({ mode: 'default' });
    const model =
      typeof options.model === 'string'
        ? resolveModel(options.model, { baseUrl: options.baseUrl })
        : options.model;
    const main = mainAgentOptions({ ...options, agentId, model, permissions }, spawn);
    // The loop's own generator, not a wrapper: every event of the tree passes through here.
    if (!session) return agentLoop({ prompt, options: main });
    return runWithSessionHooks(prompt, main, session, definitionOf(options.agent, spawn));
  } catch (error) {
    return rejecting(error);
  }
}

// biome-ignore lint/correctness/useYield: it only rejects, on the first next(), like the loop would.
async function* rejecting(error: unknown): AsyncGenerator<never, never> {
  throw error;
}

/** The structured value's type: a zod schema's output (of the query's or its agent's schema). */
export type StructuredOutputOf<Options> = Options extends { outputSchema: infer Schema }
  ? OutputOf<Schema>
  : Options extends { agent: infer Name extends string; agents: infer Agents }
    ? Name extends keyof Agents
      ? Agents[Name] extends { outputSchema: infer Schema }
        ? OutputOf<Schema>
        : unknown
      : unknown
    : unknown;

type OutputOf<Schema> = Schema extends z.ZodType ? z.output<Schema> : unknown;

/** The session's hooks and what checking them found; undefined when no agent has any. */
function sessionHooksOf(
  options: QueryOptions & { agentId: string },
  definitions: Iterable<AgentDefinition>,
): { hooks: SessionHooks; warnings: string[] } | undefined {
  const where = (path: readonly (string | number)[]) => `query hooks.${formatHookPath(path)}`;
  const own = options.hooks && compileHookSettings(options.hooks, { where, callbacks: true });
  const sources = [...(options.settingsHooks ?? []), ...(own ? [own.hooks] : [])];
  const warnings = own?.warnings ?? [];
  const any = sources.some((hooks) => hooks.size > 0) || anyDefinitionHooks(definitions);
  if (!any && warnings.length === 0) return undefined;
  const hooks = new SessionHooks({
    hooks: sources,
    sessionId: options.sessionId ?? randomUUID(),
    mainAgentId: options.agentId,
    transcriptPathFor: options.transcriptPathFor,
    projectDir: options.cwd ?? process.cwd(),
  });
  return { hooks, warnings };
}

/**
 * The main agent inside its session's hooks: SessionStart first (its context goes with the
 * first prompt), SessionEnd after the main agent ends however it ends, and every hook still
 * running stopped before the run is over.
 */
async function* runWithSessionHooks(
  prompt: string,
  options: AgentLoopOptions & { agentId: string },
  session: { hooks: SessionHooks; warnings: string[] },
  definition: AgentDefinition | undefined,
): AsyncGenerator<AgentEvent, RunResult> {
  const { hooks } = session;
  const ref: AgentRef = { agentId: options.agentId, parentId: null, depth: 0 };
  const agent = { ...ref, agentType: options.agentType ?? 'main' };
  const cwd = options.cwd ?? process.cwd();
  const signal = options.signal ?? new AbortController().signal;
  let ended = false;
  try {
    const source = options.messages?.length ? 'resume' : 'startup';
    const model = modelName(await options.model);
    const started = await hooks.start(agent, { cwd, source, model }, signal);
    const runner = agentHookRunner(hooks, definition, {
      subagent: false,
      promptContext: started.context,
    });
    const loop = agentLoop({ prompt, options: { ...options, hooks: runner } });
    const first = await loop.next();
    if (first.done) return first.value;
    yield first.value;
    // After run_start, so every reader already knows the agent they belong to.
    for (const message of [...session.warnings, ...started.warnings]) {
      yield { ...ref, type: 'warning', message };
    }
    const result = yield* loop;
    ended = true;
    const end = await hooks.end(agent, { cwd, reason: 'other' });
    for (const message of end.warnings) yield { ...ref, type: 'warning', message };
    return result;
  } finally {
    if (!ended) await hooks.end(agent, { cwd, reason: 'other' });
    await hooks.close();
  }
}

function definitionOf(name: string | undefined, spawn: SpawnTools): AgentDefinition | undefined {
  return name === undefined ? undefined : spawn.runtime.findDefinition(name);
}

function mainAgentOptions(
  options: QueryOptions & Pick<AgentLoopOptions, 'model'> & { agentId: string },
  spawn: SpawnTools,
): AgentLoopOptions & { agentId: string } {
  const tools = options.tools ?? builtinTools();
  const cwd = options.cwd ?? process.cwd();
  const outputSchema = options.outputSchema && compileOutputSchema(options.outputSchema);
  // The options' `hooks` are settings; runWithSessionHooks gives the loop its runner.
  const hooks = undefined;
  if (options.agent === undefined) {
    const spawnTools = spawn.spawnTools({
      depth: 0,
      definition: undefined,
      parentTools: 'root',
      mayUseAgent: true,
    });
    return { ...options, cwd, tools: [...tools, ...spawnTools], hooks, outputSchema };
  }
  const definition = spawn.runtime.findDefinition(options.agent);
  if (!definition) {
    const names = [...spawn.runtime.definitions.keys()].join(', ');
    throw new ConfigError(`--agent ${options.agent}`, 'no such agent', `use one of: ${names}`);
  }
  const { tools: mainTools, denyRules } = spawn.toolsFor({
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
      ? options.permissions.derive({ mode: definition.permissionMode, deny: denyRules })
      : options.permissions,
    systemPrompt: withEnvironment(definition.prompt, { cwd }),
    maxTurns: options.maxTurns ?? definition.maxTurns,
    timeBudgetMs: options.timeBudgetMs ?? definition.timeBudgetMs,
    tokenBudget: options.tokenBudget ?? definition.tokenBudget,
    agentType: definition.name,
    description: options.description ?? definition.description,
    hooks,
    outputSchema:
      outputSchema ?? (definition.outputSchema && compileOutputSchema(definition.outputSchema)),
  };
}
