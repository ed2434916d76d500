// The defaults of a run, each applied here and nowhere below: a library caller's options become a
// RunInput once (queryInput); the CLI resolves the same fields from flags and files, and takes
// the pieces it has no flag for from the helpers below (the knobs' table is core/run-knobs.ts).
import { randomUUID } from 'node:crypto';
import type { AgentMcpSettings } from '../agents/agent-mcp-servers.js';
import { findDefinition } from '../agents/subagent-runtime.js';
import { ConfigError } from '../core/config-error.js';
import { FRESH_IDS } from '../core/run-ids.js';
import { runKnobs } from '../core/run-knobs.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { resolveAgentDefinitions } from '../definitions/load-agent-definitions.js';
import { mcpTimeoutsFromEnv } from '../mcp/mcp-servers.js';
import { mcpTrust } from '../mcp/trust-store.js';
import { resolveModel } from '../model/resolve-model.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { sessionDate } from '../prompt/environment-prompt.js';
import { ProjectContext } from '../prompt/project-context.js';
import { createCommandSandbox } from '../sandbox/command-sandbox.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { FileStateCache } from '../tools/file-state.js';
import type { QueryOptions } from './query-options.js';
import type { MainBudget, RunInput } from './run-plan.js';

/**
 * A library caller's options with every default applied: the working directory, a model spec
 * resolved, the default policy and sandbox, the definitions with the built-ins, the `agent` found.
 * @throws ConfigError when `agent` names no definition
 */
export function queryInput(
  options: QueryOptions & { agentId: string; tasks: TaskManager },
): RunInput {
  const {
    model: given,
    agents,
    agent,
    definitions: resolved,
    sandbox,
    commandSandbox: sandboxGiven,
    ...rest
  } = options;
  const cwd = options.cwd ?? process.cwd();
  const definitions = resolved ?? resolveAgentDefinitions(agents ?? {});
  const mainDefinition = agent === undefined ? undefined : findDefinition(definitions, agent);
  if (agent !== undefined && !mainDefinition) {
    const names = [...definitions.keys()].join(', ');
    throw new ConfigError(`--agent ${agent}`, 'no such agent', `use one of: ${names}`);
  }
  const commandSandbox =
    sandboxGiven ?? (sandbox === false ? undefined : createCommandSandbox(sandbox));
  return {
    ...rest,
    ...runKnobs(options),
    ...runtimeDefaults(cwd, options),
    // A run without a host's session is one of its own: its hooks and spans name the same id.
    sessionId: options.sessionId ?? randomUUID(),
    ...mainPlace(cwd, mainDefinition, options),
    cwd,
    signal: options.signal ?? new AbortController().signal,
    model: typeof given === 'string' ? resolveModel(given, { baseUrl: options.baseUrl }) : given,
    // Without a policy, read-only calls run and the rest are denied, as in print mode.
    permissions:
      options.permissions ?? createPermissionPolicy({ mode: 'default', sandbox: commandSandbox }),
    commandSandbox,
    definitions,
    mainDefinition,
    tools: options.tools ?? builtinTools(),
    budget: mainBudget(options, mainDefinition),
    // A child that inherits the run's model needs it as a spec to run on a worker.
    remote: options.remote && {
      ...options.remote,
      modelSpec: options.remote.modelSpec ?? (typeof given === 'string' ? given : undefined),
    },
  };
}

/**
 * What the sub-agent runtime of a run starts from when its host has nothing of its own: fresh
 * ids, today's date, models resolved by `resolveModel`, no transcripts, agent memory only in
 * `cwd`, MCP servers started as `mcpSettings` says. A worker's child starts from these too.
 */
export function runtimeDefaults(
  cwd: string,
  given: Pick<
    QueryOptions,
    | 'runIds'
    | 'sessionDate'
    | 'resolveModel'
    | 'transcriptPathFor'
    | 'projectContext'
    | 'trustProject'
    | 'mcpStartTimeoutMs'
    | 'mcpToolTimeoutMs'
  >,
): Pick<
  RunInput,
  'runIds' | 'sessionDate' | 'resolveModel' | 'transcriptPathFor' | 'projectContext' | 'mcp'
> {
  return {
    runIds: given.runIds ?? FRESH_IDS,
    sessionDate: given.sessionDate ?? sessionDate(),
    resolveModel: given.resolveModel ?? resolveModel,
    transcriptPathFor: given.transcriptPathFor ?? (() => undefined),
    projectContext: given.projectContext ?? new ProjectContext({ projectDir: cwd }),
    mcp: mcpSettings(given),
  };
}

/** The main agent's place: its type and path in the tree, the folders its tools reach, its file state. */
export function mainPlace(
  cwd: string,
  definition: AgentDefinition | undefined,
  given: Pick<QueryOptions, 'agentType' | 'agentPath' | 'allowedDirs' | 'fileState'>,
): Pick<RunInput, 'agentType' | 'agentPath' | 'allowedDirs' | 'fileState'> {
  return {
    agentType: definition?.name ?? given.agentType ?? 'main',
    agentPath: given.agentPath ?? 'main',
    allowedDirs: given.allowedDirs ?? [cwd],
    fileState: given.fileState ?? new FileStateCache(),
  };
}

/** The main agent's budget: the caller's limits, else its definition's. */
export function mainBudget(
  given: Pick<
    QueryOptions,
    'budget' | 'timeBudgetMs' | 'tokenBudget' | 'costBudgetUsd' | 'windDownMs'
  >,
  definition: AgentDefinition | undefined,
): MainBudget {
  return {
    limits: {
      timeMs: given.timeBudgetMs ?? definition?.timeBudgetMs,
      tokens: given.tokenBudget ?? definition?.tokenBudget,
      costUsd: given.costBudgetUsd,
      windDownMs: given.windDownMs,
    },
    shared: given.budget,
  };
}

/** How the run's MCP servers start: the trust record, the timeouts (the options', else the environment's). */
export function mcpSettings(
  given: Pick<QueryOptions, 'trustProject' | 'mcpStartTimeoutMs' | 'mcpToolTimeoutMs'>,
): AgentMcpSettings {
  const fromEnv = mcpTimeoutsFromEnv();
  return {
    trust: mcpTrust({ trustProject: given.trustProject }),
    env: process.env,
    startTimeoutMs: given.mcpStartTimeoutMs ?? fromEnv.startTimeoutMs,
    toolTimeoutMs: given.mcpToolTimeoutMs ?? fromEnv.toolTimeoutMs,
  };
}

/** The tighter of two limits, either of which may be unset (a served call's and the server's). */
export function tighter(own: number | undefined, passed: number | undefined): number | undefined {
  if (own === undefined) return passed;
  return passed === undefined ? own : Math.min(own, passed);
}
