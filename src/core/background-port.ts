// The two ports between a run's agents and its background work. `BackgroundPort`: what the
// spawn side (agents/) needs of background work, which tasks/ implements. `RunAgents`: what
// background work needs of the run's agents, which agents/ implements. Neither imports the other.
import type { ChildTask } from './child-task.js';
import type { AgentRef, AgentStatus } from './events.js';
import type { Inbox } from './inbox.js';
import type { Message } from './messages.js';
import type { TaskRecord } from './tasks.js';
import type { Tool } from './tool.js';

export interface BackgroundPort {
  /** TaskOutput, TaskStop, SendMessage, ListAgents: given to every agent that gets `Agent`. */
  readonly tools: readonly Tool[];
  /**
   * Aborts when the run is cancelled. Background children follow it instead of their parent's
   * turn, so an interrupted turn leaves them running.
   */
  readonly signal: AbortSignal;
  /**
   * Runs a child as a task (started in the background, sent there while it ran, or on a
   * worker); returns once its task is in the store.
   */
  launch(child: ChildTask): TaskRecord;
  /**
   * The inbox of an agent: notifications of its tasks, messages sent to it. `lend` runs a wait
   * that blocks with the agent's `--max-parallel` slot lent out, so its own children can run.
   */
  inboxFor(agent: AgentRef, options?: { lend?: Lend }): Inbox;
}

export type Lend = <T>(signal: AbortSignal, work: () => Promise<T>) => Promise<T>;

/** One agent of the run as SendMessage, ListAgents and the task tools see it. */
export interface AgentView extends AgentRef {
  readonly agentType: string;
  readonly description: string;
  readonly name: string | null;
  /** Its path in the tree (`main/Agent#2/explore`). */
  readonly path: string;
  readonly status: AgentStatus | 'running';
  readonly background: boolean;
  readonly taskId: string | null;
  readonly lastActivityAt: number;
  /** Its model ended its turn and it waits for its own background work (not a stall). */
  readonly waiting: boolean;
  /** It runs on a worker: messages go through the run's remote executor. */
  readonly remote?: boolean;
}

/** The run's agents as its background work sees them (agents/ implements it). */
export interface RunAgents {
  readonly directory: {
    get(agentId: string): AgentView | undefined;
    /** Agents `callerId` may address: its descendants and siblings, in tree order. */
    addressableFrom(callerId: string): AgentView[];
    /** The agent `to` (an id or a name) as `callerId` may address it. */
    resolve(callerId: string, to: string): AgentView | undefined;
    /** Whether `agentId` is `ancestorId` or below it. */
    isWithin(agentId: string, ancestorId: string): boolean;
    /** How many agents below `agentId` still run. */
    runningBelow(agentId: string): number;
    /** Resolves once the agent's current run has ended. */
    whenEnded(agentId: string): Promise<void>;
  };
  /** A child's final text is cut to this many characters for its parent. */
  readonly resultMaxChars: number;
  /**
   * An agent whose run has ended, continued with its whole conversation and `prompt` as the
   * next user message, for `owner`; undefined when it cannot be continued.
   */
  continued(agentId: string, prompt: string, owner: AgentRef): ChildTask | undefined;
  /** A message for a remote agent that runs: false when it has ended. */
  sendRemote(agentId: string, text: string): Promise<boolean>;
}

/** Children of a crashed session again, for `--resume` (agents/restarted-child.ts). */
export interface ChildRestarts {
  /** The new main agent of a resume: tasks of agents that are gone report to it. */
  readonly main: AgentRef;
  /**
   * A `local_agent` task's child from its record and sidechain transcript, in its own worktree
   * if it had one; throws with why it cannot go on. `messages`: the conversation it goes on from.
   */
  restart(
    record: TaskRecord,
    resume: ChildResume,
  ): Promise<{ child: ChildTask; messages: readonly Message[] }>;
  /** A `remote_agent` task's child, attached to again; a string says why it cannot be. */
  reattach(record: TaskRecord): ChildTask | string;
}

/** How a restarted child goes on: what tasks/ knows of the resume and of transcripts. */
export interface ChildResume {
  /** Its next message (or its task again, when it was killed before its first line). */
  readonly prompt: string;
  /** Warnings for people: a damaged transcript line. */
  warn(warning: string): void;
  /** Its conversation from its sidechain transcript (session/read-transcript.ts). */
  read(transcript: string): { messages: Message[]; warnings: string[] };
  /** The result `read` gives a call the crash cut off: one that changes nothing is run again. */
  readonly interrupted: string;
}
