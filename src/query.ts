// query(): the agent loop with sub-agents, background tasks, MCP, hooks and the project's context
// wired in. It adds the Agent tool (and a definition's delegate_to_<name> tools, the task tools,
// and Skill when there are skills) to the main agent; every sub-agent then runs agentLoop()
// again, in the foreground or in the background. The session's MCP servers start before the
// main agent and stop after it; its SessionStart and SessionEnd hooks run around all that.
import { randomUUID } from 'node:crypto';
import type { TracerProvider } from '@opentelemetry/api';
import type { z } from 'zod';
import {
  type AgentMcpSettings,
  startAgentServers,
  withAgentServerTools,
} from './agents/agent-mcp-servers.js';
import { childTools } from './agents/child-tools.js';
import type {
  AgentDefinition,
  AgentDefinitionInput,
} from './agents/definitions/agent-definition.js';
import { resolveAgentDefinitions } from './agents/definitions/load-agent-definitions.js';
import { compileOutputSchema, type OutputSchemaInput } from './agents/definitions/output-schema.js';
import { ForegroundChildren } from './agents/foreground-children.js';
import { memoryTools } from './agents/memory/memory-tools.js';
import type { ProjectContext } from './agents/project-context.js';
import {
  runInSession,
  type SessionHookSources,
  sessionHooksOf,
} from './agents/session-hooks-run.js';
import { SpawnTools } from './agents/spawn-tools.js';
import type { ParentView } from './agents/subagent-context.js';
import { SubagentRuntime, type SubagentSettings } from './agents/subagent-runtime.js';
import { Budget } from './core/budget.js';
import { ConfigError } from './core/config-error.js';
import type { AgentEvent, RunResult } from './core/events.js';
import type { HookRunner } from './core/hook-runner.js';
import { inheritedOptions } from './core/inherited-options.js';
import type { Tool } from './core/tool.js';
import { type AgentLoopOptions, agentLoop } from './loop/agent-loop.js';
import { Interrupter } from './loop/stop-signals.js';
import { mcpTimeoutsFromEnv, type StartedServers, startMcpServers } from './mcp/mcp-servers.js';
import { type McpServerInput, type McpServerSpec, serverSpecsOf } from './mcp/server-config.js';
import { mcpTrust } from './mcp/trust-store.js';
import { resolveModel } from './model/resolve-model.js';
import { createPermissionPolicy } from './permissions/create-permission-policy.js';
import { BackgroundTasks } from './tasks/background-tasks.js';
import { TaskManager } from './tasks/task-manager.js';
import { tracedRun } from './telemetry/traced-run.js';
import { builtinTools } from './tools/builtin-tools.js';
import { FileStateCache } from './tools/file-state.js';

export interface QueryOptions
  extends Omit<AgentLoopOptions, 'model' | 'hooks' | 'outputSchema' | 'inbox' | 'interrupt'>,
    Omit<SubagentSettings, 'definitions' | 'sessionHooks'>,
    SessionHookSources {
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
   * OpenTelemetry: spans for every agent, model call and tool call of the tree go to this
   * provider's tracer (GenAI semantic conventions). Message contents only with `traceContent`.
   */
  tracerProvider?: TracerProvider;
  /** Record prompts, replies and tool input/output on the spans. Default: false. */
  traceContent?: boolean;
  /**
   * MCP servers of the session, by name: `{command, args, env, cwd}`, `{type: 'http' | 'sse',
   * url, headers}`, or an in-process `McpServer` (from `@modelcontextprotocol/sdk`). Their
   * tools are `mcp__<name>__<tool>`; they start before the main agent and stop when it ends.
   */
  mcpServers?: Readonly<Record<string, McpServerInput>>;
  /**
   * Start the inline MCP servers of project agent definitions without a trust record
   * (`--trust-project`). Default false: only files recorded by `warren trust` start servers.
   */
  trustProject?: boolean;
  /** How long an MCP server may take to start. Default: `MCP_TIMEOUT`, else 30 s. */
  mcpStartTimeoutMs?: number;
  /** How long one MCP tool call may take. Default: `MCP_TOOL_TIMEOUT`, else 10 minutes. */
  mcpToolTimeoutMs?: number;
  /**
   * Hooks for every agent of the run, in Claude Code's settings shape; each entry of `hooks` is
   * a callback (`async (input, toolUseId, { signal }) => ({ … })`) or a command. See docs/hooks.md.
   */
  hooks?: SessionHookSources['hooks'];
  /**
   * The main agent must finish with a value this schema accepts (zod, or JSON Schema of an
   * object); the result's `structuredOutput` holds it, typed for a zod schema.
   */
  outputSchema?: OutputSchemaInput;
  /**
   * The run's task manager, e.g. one with a task store in the session folder (print mode);
   * default one with an in-memory store.
   */
  tasks?: TaskManager;
  /** Where background shell commands write their output; default a folder in the OS temp dir. */
  taskOutputDir?: string;
  /**
   * Restart the background tasks of `tasks`' store that were running when an earlier process
   * stopped (`--resume`), each from its sidechain transcript.
   */
  resumeTasks?: { warn?: (warning: string) => void };
  /**
   * Project instructions, skills and agent memory, from `ProjectContext.load({ projectDir,
   * instructions: true, skills: true })`: they go into the prompt of every agent run as a
   * definition (`agent` and sub-agents), and the main agent gets the Skill tool. A `systemPrompt`
   * is used as given: add `(await context.agentContext(undefined, cwd, …)).sections` to it
   * yourself. Default: agent memory only, in `cwd`.
   */
  projectContext?: ProjectContext;
}

export interface QueryParams {
  prompt: string;
  options: QueryOptions;
}

/** The background tasks of a run, for a host that manages them (`waitForBackground: false`). */
export type QueryTasks = Pick<
  TaskManager,
  'list' | 'get' | 'output' | 'wait' | 'waitAll' | 'stop' | 'shutdown'
>;

/**
 * The run's generator (every event of the tree, the main agent's result), with two more
 * handles: `interrupt()` ends the main agent's current turn, leaving background tasks running;
 * `tasks` lists, waits for and stops them.
 */
export type Query<Result extends RunResult = RunResult> = AsyncGenerator<AgentEvent, Result> & {
  interrupt(): void;
  /**
   * Sends the main agent's running foreground children (or only `agentId`) to the background:
   * each waiting Agent call returns its task at once, and the child goes on as a background
   * task that notifies the main agent when it ends. Returns the ids of the children sent.
   */
  sendToBackground(agentId?: string): string[];
  readonly tasks: QueryTasks;
};

/** What the main agent's loop gets besides its options: the run's background side. */
interface RunSide {
  background: BackgroundTasks;
  spawn: SpawnTools;
  interrupter: Interrupter;
  options: QueryOptions;
}

/**
 * Runs an agent, and the sub-agents it starts, to the end. Yields every event of the tree as
 * it happens (children's events carry their own `agentId`, `parentId` and `depth`, background
 * ones included); returns the main agent's result. When the main agent ends its turn while
 * background tasks it started still run, it waits for them and goes on with their
 * notifications, unless `waitForBackground: false`. Tools default to the built-ins: Read,
 * Write, Edit, Glob, Grep, Bash, TodoWrite, WebFetch. Permissions default to the `default` mode
 * with no way to ask: read-only calls run, others are denied with a message; pass `permissions`
 * (with `canUseTool`, or another mode) to allow more. `hooks` run for every agent of the tree
 * (docs/hooks.md); with an `outputSchema` (or an `agent` whose definition has one) the result's
 * `structuredOutput` is typed by a zod schema. Unusable options (a broken definition) make the
 * first `next()` reject.
 */
export function query<const Options extends QueryOptions>(params: {
  prompt: string;
  options: Options;
}): Query<RunResult & { structuredOutput?: StructuredOutputOf<Options> }>;
export function query({ prompt, options: given }: QueryParams): Query {
  const interrupter = new Interrupter();
  const foreground = new ForegroundChildren();
  const options = { ...given, agentId: given.agentId ?? `main_${randomUUID().slice(0, 8)}` };
  const manager =
    options.tasks ??
    new TaskManager({
      signal: options.signal,
      onEvent: options.onEvent,
      resultMaxChars: options.resultMaxChars,
    });
  let run: AsyncGenerator<AgentEvent, RunResult>;
  try {
    run = start(prompt, options, manager, interrupter, foreground);
  } catch (error) {
    run = rejecting(error);
  }
  return Object.assign(run, {
    interrupt: () => interrupter.interrupt(),
    sendToBackground: (agentId?: string) =>
      foreground.toBackground(agentId === undefined ? { parentId: options.agentId } : { agentId }),
    tasks: manager,
  });
}

function start(
  prompt: string,
  options: QueryOptions,
  manager: TaskManager,
  interrupter: Interrupter,
  foreground: ForegroundChildren,
): AsyncGenerator<AgentEvent, RunResult> {
  const definitions = options.definitions ?? resolveAgentDefinitions(options.agents ?? {});
  const mcp = mcpSettings(options);
  const agentId = options.agentId ?? `main_${randomUUID().slice(0, 8)}`;
  const session = sessionHooksOf(options, agentId, definitions.values());
  const runtime = new SubagentRuntime({
    ...options,
    definitions,
    mcp,
    sessionHooks: session?.hooks,
    // A child that inherits the run's model needs it as a spec to run on a worker.
    remote: options.remote && {
      ...options.remote,
      modelSpec:
        options.remote.modelSpec ?? (typeof options.model === 'string' ? options.model : undefined),
    },
  });
  const background = new BackgroundTasks(manager, runtime, {
    outputDir: options.taskOutputDir,
    onEvent: options.onEvent,
  });
  runtime.background = background;
  runtime.foreground = foreground;
  const spawn = new SpawnTools(runtime);
  // Without a policy, read-only calls run and the rest are denied, as in print mode.
  const permissions = options.permissions ?? createPermissionPolicy({ mode: 'default' });
  const model =
    typeof options.model === 'string'
      ? resolveModel(options.model, { baseUrl: options.baseUrl })
      : options.model;
  // The built-in Bash becomes the one that can run in the background.
  const skill = runtime.context.skillTool;
  const tools = [...(options.tools ?? builtinTools()), ...(skill ? [skill] : [])].map((tool) =>
    background.withBackgroundBash(tool),
  );
  const main = { ...options, agentId, model, permissions, tools };
  const side: RunSide = { background, spawn, interrupter, options };
  const servers = serverSpecsOf(options.mcpServers ?? {});
  const mainDefinition =
    options.agent === undefined ? undefined : spawn.runtime.findDefinition(options.agent);
  // Without servers, a definition or hooks, the loop's own generator, not a wrapper: every
  // event of the tree passes through here.
  const begin = (hooks: HookRunner | undefined) =>
    servers.length > 0 || options.agent !== undefined
      ? runWithSetup(prompt, main, side, servers, hooks)
      : mainLoop(prompt, plainMainOptions(main, spawn, hooks), side);
  const run = session
    ? runInSession(
        session,
        {
          ref: { agentId, parentId: null, depth: 0 },
          agentType: mainDefinition?.name ?? options.agentType ?? 'main',
          path: options.agentPath ?? 'main',
          cwd: options.cwd ?? process.cwd(),
          model,
          resumed: (options.messages?.length ?? 0) > 0,
          signal: options.signal,
          definition: mainDefinition,
        },
        begin,
      )
    : begin(undefined);
  if (!options.tracerProvider) return run;
  return tracedRun(run, options.tracerProvider, { logContent: options.traceContent });
}

/**
 * The main agent's loop with the run's background side: its inbox (and so its background
 * tasks' notifications), its interrupt, its place at the root of the agent directory, and the
 * restart of tasks a crashed run left running.
 */
function mainLoop(
  prompt: string,
  main: AgentLoopOptions,
  side: RunSide,
): AsyncGenerator<AgentEvent, RunResult> {
  const { background, spawn, interrupter, options } = side;
  const agentId = main.agentId ?? `main_${randomUUID().slice(0, 8)}`;
  spawn.runtime.directory.addRoot({
    agentId,
    parentId: null,
    depth: 0,
    agentType: main.agentType ?? 'main',
    description: main.description ?? '',
    path: main.agentPath ?? 'main',
  });
  let model = main.model;
  if (options.resumeTasks) {
    // Restarted children hang below the main agent's budget, made here rather than by the loop.
    main.budget ??= new Budget({
      timeMs: main.timeBudgetMs,
      tokens: main.tokenBudget,
      costUsd: main.costBudgetUsd,
    });
    const budget = main.budget;
    // Restarted tasks must count before the main agent first waits: the loop starts once the
    // model and the restarts are ready. The module loads only to resume: other runs never pay
    // for it at start-up.
    const resumed = Promise.all([model, import('./tasks/resume-tasks.js')]).then(
      ([resolved, { resumeTasks }]) =>
        resumeTasks({
          tasks: background,
          spawner: spawn,
          main: mainView({ ...main, agentId }, resolved, budget, background.signal),
          history: options.messages ?? [],
          warn: options.resumeTasks?.warn,
        }),
    );
    model = Promise.all([model, resumed]).then(([resolved]) => resolved);
  }
  const inbox = background.manager.inboxFor(
    { agentId, parentId: null, depth: 0 },
    { root: true, keepTasks: options.waitForBackground === false },
  );
  return agentLoop({
    prompt,
    options: { ...main, agentId, model, interrupt: interrupter, inbox },
  });
}

/** The main agent as its children see it, for tasks restarted before its loop runs. */
function mainView(
  main: AgentLoopOptions,
  model: Awaited<AgentLoopOptions['model']>,
  budget: Budget,
  signal: AbortSignal,
): ParentView {
  const cwd = main.cwd ?? process.cwd();
  return {
    run: {
      agentPath: main.agentPath ?? 'main',
      inherited: inheritedOptions(main),
      cancelSignal: signal,
      model,
      tools: main.tools ?? [],
      shownTools: main.tools ?? [],
      budget,
      permissions: main.permissions,
      messages: [],
      turnsLeft: main.maxTurns ?? Infinity,
    },
    cwd,
    allowedDirs: main.allowedDirs ?? [cwd],
    fileState: main.fileState ?? new FileStateCache(),
    toolCallId: 'resumed',
    agent: {
      agentId: main.agentId!,
      parentId: null,
      depth: 0,
      agentType: main.agentType ?? 'main',
      path: main.agentPath ?? 'main',
    },
  };
}

function mcpSettings(options: QueryOptions): AgentMcpSettings {
  const fromEnv = mcpTimeoutsFromEnv();
  return {
    trust: mcpTrust({ trustProject: options.trustProject }),
    env: process.env,
    startTimeoutMs: options.mcpStartTimeoutMs ?? fromEnv.startTimeoutMs,
    toolTimeoutMs: options.mcpToolTimeoutMs ?? fromEnv.toolTimeoutMs,
  };
}

/**
 * The run with what must be set up first: the session's MCP servers (all at once), then the
 * main agent's definition (its prompt, memory and own servers). Servers stop when the run ends
 * however it ends. Problems found on the way are `warning` events right after the main agent's
 * `run_start`.
 */
async function* runWithSetup(
  prompt: string,
  options: QueryOptions & Pick<AgentLoopOptions, 'model'> & { tools: Tool[] },
  side: RunSide,
  specs: readonly McpServerSpec[],
  hooks: HookRunner | undefined,
): AsyncGenerator<AgentEvent, RunResult> {
  const { spawn } = side;
  const { mcp } = spawn.runtime;
  const cwd = options.cwd ?? process.cwd();
  const signal = options.signal ?? new AbortController().signal;
  const ref = {
    agentId: options.agentId ?? `agent_${randomUUID().slice(0, 8)}`,
    parentId: options.parentId ?? null,
    depth: options.depth ?? 0,
  };
  const definition =
    options.agent === undefined ? undefined : spawn.runtime.findDefinition(options.agent);
  if (options.agent !== undefined && !definition) {
    const names = [...spawn.runtime.definitions.keys()].join(', ');
    throw new ConfigError(`--agent ${options.agent}`, 'no such agent', `use one of: ${names}`);
  }
  let session: StartedServers | undefined;
  let own: Awaited<ReturnType<typeof startAgentServers>> | undefined;
  try {
    session = await startMcpServers(specs, { ...mcp, cwd, signal });
    const tools: Tool[] = [...options.tools, ...session.tools];
    const withTools = { ...options, ...ref, cwd, tools };
    const { main, warnings } = definition
      ? await definitionMainOptions(withTools, spawn, definition, hooks)
      : { main: plainMainOptions(withTools, spawn, hooks), warnings: [] };
    if (definition?.mcpServers?.length) {
      own = await startAgentServers({ definition, parentTools: tools, cwd, signal, settings: mcp });
      const granted = childTools(own.tools, { ...definition, tools: undefined }).tools;
      main.tools = withAgentServerTools(main.tools ?? [], granted);
    }
    warnings.unshift(...session.warnings, ...(own?.warnings ?? []));
    const loop = mainLoop(prompt, main, side);
    const first = await loop.next();
    if (first.done) return first.value;
    yield first.value;
    for (const message of warnings) yield { ...ref, type: 'warning', message };
    return yield* loop;
  } finally {
    await Promise.all([own?.close(), session?.close()]);
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

/**
 * The main agent without a definition: the caller's prompt and tools, and the Agent tool.
 * @param hooks the main agent's hook runner (the options' `hooks` are settings, not one)
 */
function plainMainOptions(
  options: QueryOptions & Pick<AgentLoopOptions, 'model'> & { tools: Tool[] },
  spawn: SpawnTools,
  hooks: HookRunner | undefined,
): AgentLoopOptions & { tools: Tool[] } {
  const spawnTools = spawn.spawnTools({
    depth: 0,
    definition: undefined,
    parentTools: 'root',
    mayUseAgent: true,
  });
  return {
    ...options,
    cwd: options.cwd ?? process.cwd(),
    tools: [...options.tools, ...spawnTools],
    hooks,
    outputSchema: options.outputSchema && compileOutputSchema(options.outputSchema),
  };
}

/**
 * The main agent run as a definition (`agent`): its prompt with the project's sections, its
 * tools, memory, permission mode, turns, budgets and output schema; the caller's options win
 * where both set one.
 */
async function definitionMainOptions(
  options: QueryOptions & Pick<AgentLoopOptions, 'model'> & { tools: Tool[]; cwd: string },
  spawn: SpawnTools,
  definition: AgentDefinition,
  hooks: HookRunner | undefined,
): Promise<{ main: AgentLoopOptions & { tools: Tool[] }; warnings: string[] }> {
  const { cwd } = options;
  const granted = spawn.toolsFor({ depth: 0, definition, parentTools: options.tools, root: true });
  const skillTool = granted.tools.some((tool) => tool.name === 'Skill');
  const setup = await spawn.runtime.setupFor(definition, cwd, { skillTool });
  const memoryDir = setup.memory?.dir;
  const tools =
    memoryDir === undefined
      ? granted.tools
      : [...granted.tools, ...memoryTools(granted.tools, options.tools, memoryDir)];
  const allowedDirs = options.allowedDirs ?? [cwd];
  const outputSchema = options.outputSchema ?? definition.outputSchema;
  const main: AgentLoopOptions & { tools: Tool[] } = {
    ...options,
    tools,
    allowedDirs: memoryDir === undefined ? allowedDirs : [...allowedDirs, memoryDir],
    permissions: options.permissions?.derive
      ? options.permissions.derive({
          mode: definition.permissionMode,
          deny: granted.denyRules,
          ask: granted.askRules,
          ...(memoryDir !== undefined && { memoryDir }),
        })
      : options.permissions,
    systemPrompt: setup.systemPrompt,
    maxTurns: options.maxTurns ?? definition.maxTurns,
    timeBudgetMs: options.timeBudgetMs ?? definition.timeBudgetMs,
    tokenBudget: options.tokenBudget ?? definition.tokenBudget,
    agentType: definition.name,
    description: options.description ?? definition.description,
    hooks,
    outputSchema: outputSchema && compileOutputSchema(outputSchema),
  };
  return { main, warnings: setup.warnings };
}
