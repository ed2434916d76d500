// What the spawn side needs of background work, and nothing more: tasks/ implements it (the task
// manager and its executors) and query() plugs it into the run, so agents/ never imports tasks/.
import type { AgentRef } from '../core/events.js';
import type { Inbox } from '../core/inbox.js';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import type { TaskRecord } from '../core/tasks.js';
import type { Tool, ToolOutput } from '../core/tool.js';
import type { AgentServers } from './agent-mcp-servers.js';
import type { ChildWorkspace } from './child-worktree.js';
import type { ChildEnding, ChildRun, ChildSink } from './drive-child.js';

/** A child to run in the background, and what a restart after a crash needs to rebuild it. */
export interface BackgroundChild extends ChildRun {
  /** The agent that started it: it gets the notification. */
  owner: AgentRef;
  /** Its own MCP servers, started for it: they stop when it ends. */
  servers?: AgentServers;
  /**
   * Its own git worktree (`isolation: worktree`), made before it was launched: announced after
   * its `run_start`, finished (removed or kept) once it ends, with the note its owner reads.
   */
  workspace?: ChildWorkspace;
  /**
   * Kept in the task store: the definition, the task, the model asked for, its path, and its
   * worktree (a restart after a crash goes on in it).
   */
  restart: {
    agentType: string;
    prompt: string;
    model?: string;
    agentPath?: string;
    worktree?: string;
    /** A JSON Schema given for this call only (a workflow's `agent(prompt, {schema})`). */
    outputSchema?: Readonly<Record<string, unknown>>;
  };
}

/** A foreground child sent to the background while it runs: the rest of its work, handed over. */
export interface AdoptedChild {
  /** The agent whose call waited for it: it gets the notification. */
  owner: AgentRef;
  agentId: string;
  agentType: string;
  description: string;
  name?: string;
  restart: BackgroundChild['restart'];
  /**
   * Moves the child's events to `sink` and its stop to `signal`; resolves once it has ended,
   * with how it ended (undefined when it never ran) and the text its owner reads.
   */
  handOver(
    sink: ChildSink,
    signal: AbortSignal,
  ): Promise<{ ending: ChildEnding | undefined; output: ToolOutput }>;
}

/** A child to run in the background on a worker: a `remote_agent` task. */
export interface RemoteBackgroundChild {
  spec: RemoteChildSpec;
  /** The agent that started it: it gets the notification. */
  owner: AgentRef;
  name?: string;
  /** The call that started it, for its `run_start`. */
  parentToolCallId?: string;
}

export interface BackgroundPort {
  /** TaskOutput, TaskStop, SendMessage, ListAgents: given to every agent that gets `Agent`. */
  readonly tools: readonly Tool[];
  /**
   * Aborts when the run is cancelled. Background children follow it instead of their parent's
   * turn, so an interrupted turn leaves them running.
   */
  readonly signal: AbortSignal;
  /** Starts a child in the background; returns once its task is in the store. */
  launch(child: BackgroundChild): TaskRecord;
  /** Takes over a running foreground child as a background task (its call returns at once). */
  adopt(child: AdoptedChild): TaskRecord;
  /** Starts a remote child in the background (the run has a RemotePort); the same contract. */
  launchRemote(child: RemoteBackgroundChild): TaskRecord;
  /**
   * The inbox of an agent: notifications of its tasks, messages sent to it. `lend` runs a wait
   * that blocks with the agent's `--max-parallel` slot lent out, so its own children can run.
   */
  inboxFor(agent: AgentRef, options?: { lend?: Lend }): Inbox;
}

export type Lend = <T>(signal: AbortSignal, work: () => Promise<T>) => Promise<T>;
