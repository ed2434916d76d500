import { randomUUID } from 'node:crypto';
import { startAgentServers, withAgentServerTools } from './agents/agent-mcp-servers.js';
import { childTools } from './agents/child-tools.js';
import type { AgentDefinition } from './agents/definitions/agent-definition.js';
import { compileOutputSchema } from './agents/definitions/output-schema.js';
import { memoryTools } from './agents/memory/memory-tools.js';
import type { SpawnTools } from './agents/spawn-tools.js';
import type { ParentView } from './agents/subagent-context.js';
import { modelSettingsOf } from './agents/subagent-context.js';
import { Budget } from './core/budget.js';
import { ConfigError } from './core/config-error.js';
import type { AgentEvent, RunResult } from './core/events.js';
import type { HookRunner } from './core/hook-runner.js';
import { inheritedOptions } from './core/inherited-options.js';
import type { Tool } from './core/tool.js';
import { type AgentLoopOptions, agentLoop } from './loop/agent-loop.js';
import type { Interrupter } from './loop/stop-signals.js';
import { type StartedServers, startMcpServers } from './mcp/mcp-servers.js';
import type { McpServerSpec } from './mcp/server-config.js';
import type { QueryOptions } from './query-options.js';
import type { BackgroundTasks } from './tasks/background-tasks.js';
import { FileStateCache } from './tools/file-state.js';

/** What the main agent's loop gets besides its options: the run's background side. */
export interface RunSide {
  background: BackgroundTasks;
  spawn: SpawnTools;
  interrupter: Interrupter;
  options: QueryOptions;
}

/**
 * The main agent's loop with the run's background side: its inbox (and so its background
 * tasks' notifications), its interrupt, its place at the root of the agent directory, and the
 * restart of tasks a crashed run left running.
 */
export function mainLoop(
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
    const resumed = Promise.all([
      model,
      import('./tasks/resume-tasks.js'),
      import('./agents/restarted-child.js'),
    ]).then(([resolved, { resumeTasks }, { childRestarts }]) =>
      resumeTasks({
        tasks: background,
        children: childRestarts(
          spawn,
          mainView({ ...main, agentId }, resolved, budget, background.signal),
        ),
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

/**
 * The run with what must be set up first: the session's MCP servers (all at once), then the
 * main agent's definition (its prompt, memory and own servers). Servers stop when the run ends
 * however it ends. Problems found on the way are `warning` events right after the main agent's
 * `run_start`.
 */
export async function* runWithSetup(
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
    for (const message of warnings) {
      const warning: AgentEvent = { ...ref, type: 'warning', message };
      // Made outside the loop: recorded as it is made, as the loop's own events are.
      options.onEvent?.(warning);
      yield warning;
    }
    return yield* loop;
  } finally {
    await Promise.all([own?.close(), session?.close()]);
  }
}

/**
 * The main agent without a definition: the caller's prompt and tools, and the Agent tool.
 * @param hooks the main agent's hook runner (the options' `hooks` are settings, not one)
 */
export function plainMainOptions(
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
    modelSettings: options.modelSettings ?? modelSettingsOf(definition, undefined),
  };
  return { main, warnings: setup.warnings };
}
