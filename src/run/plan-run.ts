// The composition root of a run: from a resolved RunInput, the ports every agent of the tree
// shares (the sub-agent runtime with its background side, the spawn tools, the interrupt), the
// main agent's tools and the session's servers and hooks, each built once and complete.
import { sessionHooksOf } from '../agents/session-hooks-run.js';
import { SpawnTools } from '../agents/spawn-tools.js';
import { SubagentRuntime } from '../agents/subagent-runtime.js';
import { Interrupter } from '../loop/stop-signals.js';
import { serverSpecsOf } from '../mcp/server-config.js';
import { BackgroundTasks } from '../tasks/background-tasks.js';
import { AgentTraceContexts } from '../telemetry/agent-trace-contexts.js';
import { createWorkflowTool } from '../workflows/workflow-tool.js';
import type { RunInput, RunPlan } from './run-plan.js';

export function planRun(input: RunInput): RunPlan {
  const { definitions, tasks, workflows } = input;
  const session = sessionHooksOf(input, input.agentId, definitions.values());
  // Children in other processes (A2A, ACP) continue the trace: the tracer says where.
  const traceContexts = input.tracerProvider ? new AgentTraceContexts() : undefined;
  const runtime = new SubagentRuntime({
    ...input,
    traceContext: traceContexts,
    sessionHooks: session?.hooks,
    background: (made) => new BackgroundTasks(tasks, made, { outputDir: input.taskOutputDir }),
    workflowTool:
      workflows &&
      ((spawner) => createWorkflowTool(spawner, { ...workflows, storePath: tasks.store.path })),
  });
  const background = backgroundOf(runtime);
  // The built-in Bash becomes the one that can run in the background.
  const skill = runtime.context.skillTool;
  const tools = [...input.tools, ...(skill ? [skill] : [])].map((tool) =>
    background.withBackgroundBash(tool),
  );
  return {
    ...input,
    ref: { agentId: input.agentId, parentId: input.parentId ?? null, depth: input.depth ?? 0 },
    tools,
    servers: serverSpecsOf(input.mcpServers ?? {}),
    session,
    traceContexts,
    ports: { runtime, spawn: new SpawnTools(runtime), background, interrupter: new Interrupter() },
  };
}

/** The runtime's background side as the run made it: the task manager's, with its executors. */
function backgroundOf(runtime: SubagentRuntime): BackgroundTasks {
  const { background } = runtime;
  if (!(background instanceof BackgroundTasks)) throw new Error('the run has no background side');
  return background;
}
