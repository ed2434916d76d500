// The options and the handle of query(): what a library caller passes, and what the run it
// gets back can do besides yielding events.

import type { TracerProvider } from '@opentelemetry/api';
import type { z } from 'zod';
import type { SessionHookSources } from '../agents/session-hooks-run.js';
import type { SubagentSettings } from '../agents/subagent-runtime.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { AgentDefinition, AgentDefinitionInput } from '../definitions/agent-definition.js';
import type { OutputSchemaInput } from '../definitions/output-schema.js';
import type { AgentLoopOptions } from '../loop/agent-loop.js';
import type { McpServerInput } from '../mcp/server-config.js';
import type { ProjectContext } from '../prompt/project-context.js';
import type { SandboxOptions } from '../sandbox/command-sandbox.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { WorkflowToolOptions } from '../workflows/workflow-tool.js';

export interface QueryOptions
  extends Omit<AgentLoopOptions, 'model' | 'hooks' | 'outputSchema' | 'inbox' | 'interrupt'>,
    Partial<
      Omit<
        SubagentSettings,
        'definitions' | 'sessionHooks' | 'foreground' | 'background' | 'workflowTool'
      >
    >,
    SessionHookSources {
  /** An AI SDK language model, or a warren model spec such as `anthropic:claude-sonnet-4-5`. */
  model: AgentLoopOptions['model'] | string;
  /**
   * The operating-system sandbox every Bash command of the tree runs in (docs/security.md).
   * Default: on, with no network and without the provider keys. `false` turns it off: commands
   * then run unconfined with the whole environment. Ignored when `commandSandbox` is given.
   */
  sandbox?: false | SandboxOptions;
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
   * A W3C `traceparent` (`00-<trace id>-<span id>-<flags>`) of a caller in another process: with
   * `tracerProvider`, the main agent's span is a child of that span, in the caller's trace.
   */
  traceparent?: string;
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
  /**
   * Gives the main agent the Workflow tool (docs/workflows.md): runs are kept in the task
   * store's file (`tasks`), items run as its background children.
   */
  workflows?: Omit<WorkflowToolOptions, 'storePath'>;
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
