// The main agent of a planned run: its loop with the run's background side (its inbox, its
// interrupt, the root of the agent directory, the restart of tasks a crashed run left running),
// and what must be set up first when it runs as a definition or with MCP servers.
import { startAgentServers, withAgentServerTools } from '../agents/agent-mcp-servers.js';
import { childTools } from '../agents/child-tools.js';
import type { ParentView } from '../agents/subagent-context.js';
import { modelSettingsOf } from '../agents/subagent-context.js';
import { Budget } from '../core/budget.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { HookRunner } from '../core/hook-runner.js';
import { inheritedOptions } from '../core/inherited-options.js';
import type { Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { compileOutputSchema } from '../definitions/output-schema.js';
import { type AgentLoopOptions, agentLoop } from '../loop/agent-loop.js';
import { type StartedServers, startMcpServers } from '../mcp/mcp-servers.js';
import { memoryTools } from '../prompt/memory/memory-tools.js';
import type { RunPlan } from './run-plan.js';

/** The main agent's loop options, as the plan gives them (its id, cwd, folders and tools settled). */
export type MainOptions = AgentLoopOptions & {
  agentId: string;
  cwd: string;
  allowedDirs: readonly string[];
  tools: Tool[];
};

/**
 * The main agent's loop with the run's background side: its inbox (and so its background
 * tasks' notifications), its interrupt, its place at the root of the agent directory, and the
 * restart of tasks a crashed run left running.
 */
export function mainLoop(
  prompt: string,
  main: MainOptions,
  plan: RunPlan,
): AsyncGenerator<AgentEvent, RunResult> {
  const { background, spawn, interrupter } = plan.ports;
  const { agentId } = main;
  spawn.runtime.directory.addRoot({
    agentId,
    parentId: null,
    depth: 0,
    agentType: plan.agentType,
    description: main.description ?? '',
    path: plan.agentPath,
  });
  let model = main.model;
  let { budget } = main;
  if (plan.resumeTasks) {
    // Restarted children hang below the main agent's budget, made here rather than by the loop.
    budget ??= new Budget(plan.budget.limits);
    const node = budget;
    // Restarted tasks must count before the main agent first waits: the loop starts once the
    // model and the restarts are ready. The module loads only to resume: other runs never pay
    // for it at start-up.
    const resumed = Promise.all([
      model,
      import('../tasks/resume-tasks.js'),
      import('../agents/restarted-child.js'),
    ]).then(([resolved, { resumeTasks }, { childRestarts }]) =>
      resumeTasks({
        tasks: background,
        children: childRestarts(spawn, mainView(main, plan, resolved, node)),
        history: plan.messages ?? [],
        warn: plan.resumeTasks?.warn,
      }),
    );
    model = Promise.all([model, resumed]).then(([resolved]) => resolved);
  }
  const inbox = background.manager.inboxFor(
    { agentId, parentId: null, depth: 0 },
    { root: true, keepTasks: plan.waitForBackground === false },
  );
  return agentLoop({
    prompt,
    options: { ...main, model, budget, interrupt: interrupter, inbox },
  });
}

/** The main agent as its children see it, for tasks restarted before its loop runs. */
function mainView(
  main: MainOptions,
  plan: RunPlan,
  model: Awaited<AgentLoopOptions['model']>,
  budget: Budget,
): ParentView {
  return {
    run: {
      agentPath: plan.agentPath,
      inherited: inheritedOptions(main),
      cancelSignal: plan.ports.background.signal,
      model,
      tools: main.tools,
      shownTools: main.tools,
      budget,
      permissions: main.permissions,
      messages: [],
      turnsLeft: main.maxTurns ?? Infinity,
    },
    cwd: main.cwd,
    allowedDirs: main.allowedDirs,
    fileState: plan.fileState,
    toolCallId: 'resumed',
    agent: {
      agentId: main.agentId,
      parentId: null,
      depth: 0,
      agentType: plan.agentType,
      path: plan.agentPath,
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
  plan: RunPlan,
  hooks: HookRunner | undefined,
): AsyncGenerator<AgentEvent, RunResult> {
  const { spawn } = plan.ports;
  const { mcp } = spawn.runtime;
  const { cwd, signal, ref, mainDefinition: definition } = plan;
  let session: StartedServers | undefined;
  let own: Awaited<ReturnType<typeof startAgentServers>> | undefined;
  try {
    session = await startMcpServers(plan.servers, { ...mcp, cwd, signal });
    const tools: Tool[] = [...plan.tools, ...session.tools];
    const { main, warnings } = definition
      ? await definitionMainOptions(plan, tools, definition, hooks)
      : { main: plainMainOptions(plan, hooks, tools), warnings: [] };
    if (definition?.mcpServers?.length) {
      own = await startAgentServers({ definition, parentTools: tools, cwd, signal, settings: mcp });
      const granted = childTools(own.tools, { ...definition, tools: undefined }).tools;
      main.tools = withAgentServerTools(main.tools, granted);
    }
    warnings.unshift(...session.warnings, ...(own?.warnings ?? []));
    const loop = mainLoop(prompt, main, plan);
    const first = await loop.next();
    if (first.done) return first.value;
    yield first.value;
    for (const message of warnings) {
      const warning: AgentEvent = { ...ref, type: 'warning', message };
      // Made outside the loop: recorded as it is made, as the loop's own events are.
      plan.onEvent?.(warning);
      yield warning;
    }
    return yield* loop;
  } finally {
    await Promise.all([own?.close(), session?.close()]);
  }
}

/** The loop options every main agent starts from: the plan's, its budget limits, its hooks. */
function loopOptionsOf(plan: RunPlan, hooks: HookRunner | undefined): MainOptions {
  const { budget, ...rest } = plan;
  const { limits } = budget;
  return {
    ...rest,
    budget: budget.shared,
    timeBudgetMs: limits.timeMs,
    tokenBudget: limits.tokens,
    costBudgetUsd: limits.costUsd,
    windDownMs: limits.windDownMs,
    hooks,
    outputSchema: undefined,
  };
}

/**
 * The main agent without a definition: the caller's prompt and tools, and the Agent tool.
 * @param hooks the main agent's hook runner (the options' `hooks` are settings, not one)
 */
export function plainMainOptions(
  plan: RunPlan,
  hooks: HookRunner | undefined,
  tools: Tool[] = plan.tools,
): MainOptions {
  const spawnTools = plan.ports.spawn.spawnTools({
    depth: 0,
    definition: undefined,
    parentTools: 'root',
    mayUseAgent: true,
  });
  return {
    ...loopOptionsOf(plan, hooks),
    tools: [...tools, ...spawnTools],
    outputSchema: plan.outputSchema && compileOutputSchema(plan.outputSchema),
  };
}

/**
 * The main agent run as a definition (`agent`): its prompt with the project's sections, its
 * tools, memory, permission mode, turns and output schema; the caller's options win where both
 * set one (its budget is the plan's, merged already).
 */
async function definitionMainOptions(
  plan: RunPlan,
  parentTools: Tool[],
  definition: AgentDefinition,
  hooks: HookRunner | undefined,
): Promise<{ main: MainOptions; warnings: string[] }> {
  const { cwd, ports } = plan;
  const { spawn } = ports;
  const granted = spawn.toolsFor({ depth: 0, definition, parentTools, root: true });
  const skillTool = granted.tools.some((tool) => tool.name === 'Skill');
  const setup = await spawn.runtime.setupFor(definition, cwd, { skillTool });
  const memoryDir = setup.memory?.dir;
  const tools =
    memoryDir === undefined
      ? [...granted.tools]
      : [...granted.tools, ...memoryTools(granted.tools, parentTools, memoryDir)];
  const { allowedDirs, permissions } = plan;
  const outputSchema = plan.outputSchema ?? definition.outputSchema;
  const main: MainOptions = {
    ...loopOptionsOf(plan, hooks),
    tools,
    allowedDirs: memoryDir === undefined ? allowedDirs : [...allowedDirs, memoryDir],
    permissions: permissions.derive
      ? permissions.derive({
          mode: definition.permissionMode,
          deny: granted.denyRules,
          ask: granted.askRules,
          ...(memoryDir !== undefined && { memoryDir }),
        })
      : permissions,
    systemPrompt: setup.systemPrompt,
    maxTurns: plan.maxTurns ?? definition.maxTurns,
    description: plan.description ?? definition.description,
    outputSchema: outputSchema && compileOutputSchema(outputSchema),
    modelSettings: plan.modelSettings ?? modelSettingsOf(definition, undefined),
  };
  return { main, warnings: setup.warnings };
}
