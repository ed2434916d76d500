// A run planned once: what a host resolves before the main agent starts (ids, cwd, model,
// permissions, definitions, the main definition, tools, budget) and the ports built over them.
// Every field is required, so nothing below the plan re-derives a default.

import type { AgentMcpSettings } from '../agents/agent-mcp-servers.js';
import type { RemotePort } from '../agents/remote-port.js';
import type { SessionHookSetup } from '../agents/session-hooks-run.js';
import type { SpawnTools } from '../agents/spawn-tools.js';
import type { SubagentRuntime, SubagentSettings } from '../agents/subagent-runtime.js';
import type { Budget, BudgetLimits } from '../core/budget.js';
import type { CommandSandbox } from '../core/command-sandbox.js';
import type { AgentRef } from '../core/events.js';
import type { PermissionPolicy } from '../core/permission-policy.js';
import type { RunIds } from '../core/run-ids.js';
import type { RunKnobs } from '../core/run-knobs.js';
import type { Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import type { AgentLoopOptions } from '../loop/agent-loop.js';
import type { Interrupter } from '../loop/stop-signals.js';
import type { McpServerSpec } from '../mcp/server-config.js';
import type { ProjectContext } from '../prompt/project-context.js';
import type { BackgroundTasks } from '../tasks/background-tasks.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { AgentTraceContexts } from '../telemetry/agent-trace-contexts.js';
import type { QueryOptions } from './query-options.js';

/** What a host resolves, or `query()` defaults, and the plan takes as given. */
type Resolved =
  | 'agentId'
  | 'runIds'
  | 'cwd'
  | 'allowedDirs'
  | 'fileState'
  | 'signal'
  | 'model'
  | 'permissions'
  | 'sandbox'
  | 'commandSandbox'
  | 'agents'
  | 'definitions'
  | 'agent'
  | 'agentType'
  | 'agentPath'
  | 'tools'
  | 'tasks'
  | 'remote'
  | 'projectContext'
  | 'mcpStartTimeoutMs'
  | 'mcpToolTimeoutMs'
  | 'trustProject'
  | 'budget'
  | 'timeBudgetMs'
  | 'tokenBudget'
  | 'costBudgetUsd'
  | 'windDownMs'
  | keyof RunKnobs
  | 'transcriptPathFor'
  | 'resolveModel'
  | 'sessionDate'
  | 'sessionId';

/** The main agent's budget: the limits its definition and caller set, or a node shared with the caller. */
export interface MainBudget {
  limits: BudgetLimits;
  shared: Budget | undefined;
}

/**
 * One run as a host has resolved it: the settings of `query()` that have a default, with that
 * default applied (by `queryInput()` for a library caller, from flags and files by the CLI; the
 * knobs' defaults are one table, `RUN_KNOBS` in core/run-knobs.ts). What stays optional has no
 * default of the run's: the caller's own hooks and callbacks, and what is off unless set (turn
 * and output-token limits, provider options, an output schema, a tracer).
 */
export interface RunInput extends Omit<QueryOptions, Resolved>, RunKnobs {
  /** The main agent's id (`newMainId()`), and where every other id comes from. */
  agentId: string;
  runIds: RunIds;
  cwd: string;
  allowedDirs: NonNullable<AgentLoopOptions['allowedDirs']>;
  fileState: NonNullable<AgentLoopOptions['fileState']>;
  signal: AbortSignal;
  model: AgentLoopOptions['model'];
  /** The root policy; its decision store is the one the whole tree shares. */
  permissions: PermissionPolicy;
  /** The one sandbox every Bash command of the tree runs in; undefined: none. */
  commandSandbox: CommandSandbox | undefined;
  definitions: ReadonlyMap<string, AgentDefinition>;
  /** The definition the main agent runs as (`agent`, `--agent`), resolved once. */
  mainDefinition: AgentDefinition | undefined;
  /** The main agent's type and path in the tree (`main` unless it runs as a definition). */
  agentType: string;
  agentPath: string;
  /** The caller's tools; the plan adds the Skill tool and background Bash. */
  tools: readonly Tool[];
  budget: MainBudget;
  /** The run's background tasks, shared by every run of a host's session. */
  tasks: TaskManager;
  remote: RemotePort | undefined;
  projectContext: ProjectContext;
  mcp: AgentMcpSettings;
  /** Where an agent's transcript is (a truncated result points there); none: `() => undefined`. */
  transcriptPathFor: SubagentSettings['transcriptPathFor'];
  /** Turns a child's own model spec into a model (a cassette's, when replaying). */
  resolveModel: SubagentSettings['resolveModel'];
  /** The date every system prompt of the run names: one per run, so prompts stay cacheable. */
  sessionDate: string;
  /** The session's id: hooks' `session_id`, spans' `session.id` (the host's, else the run's own). */
  sessionId: string;
}

/** What the run is built of: made once, never patched afterwards. */
export interface RunPorts {
  runtime: SubagentRuntime;
  spawn: SpawnTools;
  background: BackgroundTasks;
  interrupter: Interrupter;
}

export interface RunPlan extends RunInput {
  /** The main agent's place at the root of the tree. */
  ref: AgentRef;
  /** The caller's tools, the Skill tool when there are skills, Bash able to run in the background. */
  tools: Tool[];
  /** The session's MCP servers, started before the main agent. */
  servers: McpServerSpec[];
  /** The session's hooks; undefined when no agent of the run has any. */
  session: SessionHookSetup | undefined;
  /** Filled by the tracer for children in other processes; undefined when the run is not traced. */
  traceContexts?: AgentTraceContexts;
  ports: RunPorts;
}
