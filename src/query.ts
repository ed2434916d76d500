// query(): the agent loop with sub-agents, background tasks, MCP, hooks and the project's context
// wired in. It adds the Agent tool (and a definition's delegate_to_<name> tools, the task tools,
// and Skill when there are skills) to the main agent; every sub-agent then runs agentLoop()
// again, in the foreground or in the background. The session's MCP servers start before the
// main agent and stop after it; its SessionStart and SessionEnd hooks run around all that.
import { randomUUID } from 'node:crypto';
import type { AgentMcpSettings } from './agents/agent-mcp-servers.js';
import { resolveAgentDefinitions } from './agents/definitions/load-agent-definitions.js';
import { ForegroundChildren } from './agents/foreground-children.js';
import { runInSession, sessionHooksOf } from './agents/session-hooks-run.js';
import { SpawnTools } from './agents/spawn-tools.js';
import { SubagentRuntime } from './agents/subagent-runtime.js';
import type { AgentEvent, RunResult } from './core/events.js';
import type { HookRunner } from './core/hook-runner.js';
import { FRESH_IDS, type RunIds } from './core/run-ids.js';
import { Interrupter } from './loop/stop-signals.js';
import { mainLoop, plainMainOptions, type RunSide, runWithSetup } from './main-agent.js';
import { mcpTimeoutsFromEnv } from './mcp/mcp-servers.js';
import { serverSpecsOf } from './mcp/server-config.js';
import { mcpTrust } from './mcp/trust-store.js';
import { resolveModel } from './model/resolve-model.js';
import { createPermissionPolicy } from './permissions/create-permission-policy.js';
import type { Query, QueryOptions, QueryParams, StructuredOutputOf } from './query-options.js';
import { createCommandSandbox } from './sandbox/command-sandbox.js';
import { BackgroundTasks } from './tasks/background-tasks.js';
import { TaskManager } from './tasks/task-manager.js';
import { tracedRun } from './telemetry/traced-run.js';
import { builtinTools } from './tools/builtin-tools.js';
import { createWorkflowTool } from './workflows/workflow-tool.js';

export type {
  Query,
  QueryOptions,
  QueryParams,
  QueryTasks,
  StructuredOutputOf,
} from './query-options.js';

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
  const options = { ...given, agentId: given.agentId ?? newMainId(given.runIds) };
  const manager =
    options.tasks ??
    new TaskManager({
      signal: options.signal,
      onEvent: options.onEvent,
      resultMaxChars: options.resultMaxChars,
      runIds: options.runIds,
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
  const agentId = options.agentId ?? newMainId(options.runIds);
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
  const background = new BackgroundTasks(manager, runtime, { outputDir: options.taskOutputDir });
  runtime.background = background;
  runtime.foreground = foreground;
  const { workflows } = options;
  if (workflows) {
    runtime.workflowTool = (spawner) =>
      createWorkflowTool(spawner, { ...workflows, storePath: manager.store.path });
  }
  const spawn = new SpawnTools(runtime);
  // Without a policy, read-only calls run and the rest are denied, as in print mode.
  const commandSandbox =
    options.commandSandbox ??
    (options.sandbox === false ? undefined : createCommandSandbox(options.sandbox));
  const permissions =
    options.permissions ?? createPermissionPolicy({ mode: 'default', sandbox: commandSandbox });
  const model =
    typeof options.model === 'string'
      ? resolveModel(options.model, { baseUrl: options.baseUrl })
      : options.model;
  // The built-in Bash becomes the one that can run in the background.
  const skill = runtime.context.skillTool;
  const tools = [...(options.tools ?? builtinTools()), ...(skill ? [skill] : [])].map((tool) =>
    background.withBackgroundBash(tool),
  );
  const main = { ...options, agentId, model, permissions, tools, commandSandbox };
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
          onEvent: options.onEvent,
        },
        begin,
      )
    : begin(undefined);
  if (!options.tracerProvider) return run;
  return tracedRun(run, options.tracerProvider, {
    logContent: options.traceContent,
    sessionId: options.sessionId,
    traceparent: options.traceparent,
    baseUrl: options.baseUrl,
  });
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

// biome-ignore lint/correctness/useYield: it only rejects, on the first next(), like the loop would.
async function* rejecting(error: unknown): AsyncGenerator<never, never> {
  throw error;
}

/** The main agent's id: a replay's is the recorded one. */
export function newMainId(runIds: RunIds = FRESH_IDS): string {
  return runIds.agentId('main', () => `main_${randomUUID().slice(0, 8)}`);
}
