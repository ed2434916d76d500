// query(): the agent loop with sub-agents and background tasks wired in. It adds the Agent tool
// (and a definition's delegate_to_<name> tools, and the task tools) to the main agent; every
// sub-agent then runs agentLoop() again, in the foreground or in the background.
import { randomUUID } from 'node:crypto';
import type {
  AgentDefinition,
  AgentDefinitionInput,
} from './agents/definitions/agent-definition.js';
import { resolveAgentDefinitions } from './agents/definitions/load-agent-definitions.js';
import { withEnvironment } from './agents/environment-prompt.js';
import { SpawnTools } from './agents/spawn-tools.js';
import type { ParentView } from './agents/subagent-context.js';
import { SubagentRuntime, type SubagentSettings } from './agents/subagent-runtime.js';
import { Budget } from './core/budget.js';
import { ConfigError } from './core/config-error.js';
import type { AgentEvent, RunResult } from './core/events.js';
import { inheritedOptions } from './core/inherited-options.js';
import { type AgentLoopOptions, agentLoop } from './loop/agent-loop.js';
import { Interrupter } from './loop/stop-signals.js';
import { resolveModel } from './model/resolve-model.js';
import { createPermissionPolicy } from './permissions/create-permission-policy.js';
import { BackgroundTasks } from './tasks/background-tasks.js';
import { resumeTasks } from './tasks/resume-tasks.js';
import { TaskManager } from './tasks/task-manager.js';
import { bashTool, builtinTools } from './tools/builtin-tools.js';
import { FileStateCache } from './tools/file-state.js';

export interface QueryOptions
  extends Omit<AgentLoopOptions, 'model' | 'inbox' | 'interrupt'>,
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
 * The loop's own generator (every event of the tree, the main agent's result), with two more
 * handles: `interrupt()` ends the main agent's current turn, leaving background tasks running;
 * `tasks` lists, waits for and stops them.
 */
export type Query = AsyncGenerator<AgentEvent, RunResult> & {
  interrupt(): void;
  readonly tasks: QueryTasks;
};

/**
 * Runs an agent, and the sub-agents it starts, to the end. Yields every event of the tree as
 * it happens (children's events carry their own `agentId`, `parentId` and `depth`, background
 * ones included); returns the main agent's result. When the main agent ends its turn while
 * background tasks it started still run, it waits for them and goes on with their
 * notifications, unless `waitForBackground: false`. Tools default to the built-ins: Read,
 * Write, Edit, Glob, Grep, Bash. Permissions default to the `default` mode with no way to ask:
 * read-only calls run, others are denied with a message; pass `permissions` (with
 * `canUseTool`, or another mode) to allow more. Unusable options (a broken definition) make
 * the first `next()` reject.
 */
export function query({ prompt, options }: QueryParams): Query {
  const interrupter = new Interrupter();
  const manager =
    options.tasks ??
    new TaskManager({
      signal: options.signal,
      onEvent: options.onEvent,
      resultMaxChars: options.resultMaxChars,
    });
  let generator: AsyncGenerator<AgentEvent, RunResult>;
  try {
    generator = start(prompt, options, manager, interrupter);
  } catch (error) {
    generator = rejecting(error);
  }
  // The loop's generator itself, not a wrapper: every event of the tree passes through here.
  return Object.assign(generator, {
    interrupt: () => interrupter.interrupt(),
    tasks: manager,
  });
}

function start(
  prompt: string,
  options: QueryOptions,
  manager: TaskManager,
  interrupter: Interrupter,
): AsyncGenerator<AgentEvent, RunResult> {
  const definitions = options.definitions ?? resolveAgentDefinitions(options.agents ?? {});
  const runtime = new SubagentRuntime({ ...options, definitions });
  const background = new BackgroundTasks(manager, runtime, { outputDir: options.taskOutputDir });
  runtime.background = background;
  const spawn = new SpawnTools(runtime);
  // Without a policy, read-only calls run and the rest are denied, as in print mode.
  const permissions = options.permissions ?? createPermissionPolicy({ mode: 'default' });
  let model =
    typeof options.model === 'string'
      ? resolveModel(options.model, { baseUrl: options.baseUrl })
      : options.model;
  const tools = (options.tools ?? builtinTools()).map((tool) =>
    tool === bashTool ? background.bashTool : tool,
  );
  const agentId = options.agentId ?? `main_${randomUUID().slice(0, 8)}`;
  const main = mainAgentOptions({ ...options, tools, model, permissions, agentId }, spawn);
  runtime.directory.addRoot({
    agentId,
    parentId: null,
    depth: 0,
    agentType: main.agentType ?? 'main',
    description: main.description ?? '',
  });
  const keepTasks = options.waitForBackground === false;
  if (options.resumeTasks) {
    // Restarted children hang below the main agent's budget, made here rather than by the loop.
    main.budget ??= new Budget({
      timeMs: main.timeBudgetMs,
      tokens: main.tokenBudget,
      costUsd: main.costBudgetUsd,
    });
    const budget = main.budget;
    // Restarted tasks must count before the main agent first waits: the loop starts once the
    // model and the restarts are ready.
    const resumed = Promise.resolve(model).then((resolved) =>
      resumeTasks({
        tasks: background,
        spawner: spawn,
        main: mainView(main, resolved, budget, manager.signal),
        history: options.messages ?? [],
        warn: options.resumeTasks?.warn,
      }),
    );
    model = Promise.all([model, resumed]).then(([resolved]) => resolved);
  }
  return agentLoop({
    prompt,
    options: {
      ...main,
      model,
      interrupt: interrupter,
      inbox: manager.inboxFor({ agentId, parentId: null, depth: 0 }, { root: true, keepTasks }),
    },
  });
}

// biome-ignore lint/correctness/useYield: it only rejects, on the first next(), like the loop would.
async function* rejecting(error: unknown): AsyncGenerator<never, never> {
  throw error;
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
      inherited: inheritedOptions(main),
      cancelSignal: signal,
      model,
      tools: main.tools ?? [],
      budget,
      permissions: main.permissions,
      messages: [],
      turnsLeft: main.maxTurns ?? Infinity,
    },
    cwd,
    allowedDirs: main.allowedDirs ?? [cwd],
    fileState: main.fileState ?? new FileStateCache(),
    agent: {
      agentId: main.agentId!,
      parentId: null,
      depth: 0,
      agentType: main.agentType ?? 'main',
    },
  };
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
  };
}
