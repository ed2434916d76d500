// One child's life, the same however it runs here (foreground, started in the background, sent
// there while it ran, continued by SendMessage, restarted after a crash): place → derive → start
// its servers → drive → hand off → finish. The rules of its ending are written here, once.
import type { ChildTask, ChildTaskIO } from '../core/child-task.js';
import { notRunOutcome, outcomeOf } from '../core/child-task.js';
import type { AgentEvent, AgentRef } from '../core/events.js';
import type { TaskMeta, TaskOutcome } from '../core/tasks.js';
import type { SpawnToolContext, ToolOutput } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { type AgentServers, startAgentServers, withAgentServerTools } from './agent-mcp-servers.js';
import { childTools } from './child-tools.js';
import type { ChildWorkspace } from './child-worktree.js';
import type { DetachableChild } from './detachable-child.js';
import { type ChildEnding, type ChildSink, driveChild } from './drive-child.js';
import { type HandedOff, handOff, withNote, withPartial } from './hand-off.js';
import type { Stopper } from './stall-watchdog.js';
import {
  childInbox,
  type ParentView,
  type SubagentOptions,
  type SubagentRequest,
  type SubagentStart,
} from './subagent-context.js';
import type { SubagentRuntime } from './subagent-runtime.js';

/**
 * Worktree isolation (git, the worktree's boundary and records: ~20 modules) loads with the first
 * child that asks for a worktree.
 */
let worktrees: Promise<typeof import('./child-worktree.js')> | undefined;
function loadWorktrees(): Promise<typeof import('./child-worktree.js')> {
  worktrees ??= import('./child-worktree.js');
  return worktrees;
}

/**
 * Kept in the task store: the definition, the task, the model asked for, its path, and its
 * worktree (a restart after a crash goes on in it).
 */
export interface ChildRestart {
  agentType: string;
  prompt: string;
  model?: string;
  agentPath?: string;
  worktree?: string;
  /** A JSON Schema given for this call only (a workflow's `agent(prompt, {schema})`). */
  outputSchema?: Readonly<Record<string, unknown>>;
}

/** What a child's servers start from: its parent's tools, cwd and stop, and where to warn. */
type ServerParent = Pick<SpawnToolContext, 'run' | 'cwd' | 'signal' | 'agent'> &
  Partial<Pick<SpawnToolContext, 'emit'>>;

export class ChildRun implements ChildTask {
  readonly runtime: SubagentRuntime;
  readonly ref: AgentRef;
  /** The agent that started it: it waits for it, or gets the notification. */
  readonly owner: AgentRef;
  readonly agentType: string;
  readonly description: string;
  /** Unique among live agents; SendMessage can address it by it. */
  readonly name: string | undefined;
  /** It runs without its parent waiting for it. */
  background = false;
  taskId: string | undefined;
  /** Its path in the tree when known before its options are derived (from its id's making). */
  agentPath: string | undefined;
  /** Its own git worktree (`isolation: worktree`): announced after its `run_start`. */
  workspace: ChildWorkspace | undefined;
  /** Its first message and its options, once derived from its parent. */
  prompt = '';
  options!: SubagentOptions;
  /** Its own MCP servers: they stop when it ends, before its worktree is finished. */
  servers: AgentServers | undefined;
  /** What its task record keeps for a restart; a foreground child has none until adopted. */
  restart: ChildRestart | undefined;
  /** How its run ended, once it has. */
  ending: ChildEnding | undefined;
  /**
   * The run's `onEvent`: every event made outside the child's loop (its warnings, its worktree's
   * reports) goes there as it is made, as the loop's own events do, and then to the stream.
   */
  record: ((event: AgentEvent) => void) | undefined;
  /** A foreground child sent to the background: its run so far, which its task takes over. */
  #adopted: { child: DetachableChild; work: Promise<ToolOutput> } | undefined;

  constructor(
    runtime: SubagentRuntime,
    ref: AgentRef,
    owner: AgentRef,
    about: { agentType: string; description: string; name?: string | undefined },
  ) {
    this.runtime = runtime;
    this.ref = ref;
    this.owner = owner;
    this.agentType = about.agentType;
    this.description = about.description;
    this.name = about.name;
  }

  get agentId(): string {
    return this.ref.agentId;
  }

  /**
   * Its own worktree when it asked for one (`isolation: worktree`); a message says why not.
   * Nothing to wait for when it did not ask.
   */
  place(
    request: SubagentRequest,
    parent: Pick<SpawnToolContext, 'cwd' | 'allowedDirs' | 'agent'>,
  ): Promise<string | undefined> | undefined {
    return request.isolation === 'worktree' ? this.#place(request, parent) : undefined;
  }

  async #place(
    request: SubagentRequest,
    parent: Pick<SpawnToolContext, 'cwd' | 'allowedDirs' | 'agent'>,
  ): Promise<string | undefined> {
    const { openChildWorktree } = await loadWorktrees();
    const opened = await openChildWorktree({
      agentId: this.ref.agentId,
      parent: { cwd: parent.cwd, allowedDirs: parent.allowedDirs, agentId: parent.agent.agentId },
      agentType: request.definition.name,
      description: request.description,
      base: request.worktreeBase,
    });
    if (!opened.ok) return opened.message;
    this.workspace = opened.workspace;
    return undefined;
  }

  /** The worktree it worked in before a crash, bound as when it was made; one that is gone throws. */
  async replace(worktreePath: string, parent: Pick<ParentView, 'cwd' | 'allowedDirs'>) {
    const { reopenChildWorktree } = await loadWorktrees();
    const reopened = await reopenChildWorktree({
      worktreePath,
      agentId: this.ref.agentId,
      parent,
    });
    if (!reopened.ok) throw new Error(reopened.message);
    this.workspace = reopened.workspace;
  }

  /**
   * Takes what it gets from its parent: `start` is `createSubagentContext(…, this)`
   * (subagent-context.ts), placed where this child is. Returns the warnings for people.
   */
  derived(start: SubagentStart): string[] {
    this.options = start.options;
    this.prompt = start.prompt;
    return start.warnings;
  }

  /**
   * Starts its own MCP servers and adds their tools, and those of servers it names, to its list.
   * Its definition's deny list and read-only rule still apply to them; its allow list does not:
   * declaring a server is what grants its tools.
   */
  startServers(request: SubagentRequest, parent: ServerParent): Promise<void> | undefined {
    const { definition } = request;
    return definition.mcpServers?.length ? this.#startServers(definition, parent) : undefined;
  }

  async #startServers(definition: AgentDefinition, parent: ServerParent): Promise<void> {
    const { options } = this;
    const servers = await startAgentServers({
      definition,
      parentTools: parent.run.tools,
      cwd: options.cwd ?? parent.cwd,
      signal: parent.signal,
      settings: this.runtime.mcp,
    });
    this.servers = servers;
    // A child cancelled while its servers started needs no word on each: it is cancelled.
    if (!parent.signal.aborted && parent.emit) this.warn(servers.warnings, parent.emit);
    const granted = childTools(servers.tools, { ...definition, tools: undefined }).tools;
    options.tools = withAgentServerTools(options.tools ?? [], granted);
    // A forked child must see its own servers' tools too, at the price of its parent's cache.
    if (options.shownTools) options.shownTools = withAgentServerTools(options.shownTools, granted);
  }

  /**
   * Runs its loop to its end; its worktree is announced right after its own `run_start`.
   * @param stopper the controller behind its signal, when that is its own (driveChild)
   */
  drive(sink: ChildSink, stopper?: Stopper): Promise<ChildEnding> {
    const { workspace } = this;
    if (!workspace) return driveChild(this.runtime, this, sink, stopper);
    return loadWorktrees().then(({ announcingWorktree }) =>
      driveChild(
        this.runtime,
        this,
        announcingWorktree(sink, workspace, this.ref, this.record),
        stopper,
      ),
    );
  }

  /**
   * What its parent reads, from its hand-off (`handOff(ending.result, …)`, hand-off.ts): the
   * checked text, then what it was still writing if it was stopped. The check's warnings are
   * made outside any loop, like every warning of `warn`.
   */
  handedOff(ending: ChildEnding, handed: HandedOff, emit: ChildSink): ToolOutput {
    if (handed.warnings.length > 0) this.warn(handed.warnings, emit);
    return withPartial(handed.output, ending.partial);
  }

  /**
   * Warnings about the child made outside its loop: recorded as they are made (the run's
   * `onEvent`: a host reads its session there, and a task's stream may have ended), then passed
   * to `emit`, its parent's stream or its task's.
   */
  warn(messages: readonly string[], emit: ChildSink): void {
    for (const message of messages) this.#report({ ...this.ref, type: 'warning', message }, emit);
  }

  #report(event: AgentEvent, emit: ChildSink): void {
    this.record?.(event);
    emit(event);
  }

  /**
   * However it ended (done, failed, cancelled, a throw): its servers stop, then its worktree is
   * finished, and the note about the worktree ends what its parent reads.
   */
  async finish<T extends ToolOutput | undefined>(output: T, emit: ChildSink): Promise<T> {
    if (this.servers) await this.#closeServers();
    const { workspace } = this;
    if (!workspace) return output;
    // Its reports are made outside its loop, and often after its owner's stream has ended.
    const { finishChildWorktree } = await loadWorktrees();
    const { note } = await finishChildWorktree(workspace, this.ref, this, (event) =>
      this.#report(event, emit),
    );
    return (output === undefined ? output : withNote(output, note)) as T;
  }

  /** The same, for a worker's journaled step: the note about its worktree alone. */
  async finishWorktree(sink: ChildSink): Promise<string> {
    if (this.servers) await this.#closeServers();
    const { finishChildWorktree } = await loadWorktrees();
    const { note } = await finishChildWorktree(this.workspace!, this.ref, this, sink);
    return note;
  }

  #closeServers(): Promise<void> {
    const servers = this.servers!;
    this.servers = undefined;
    return servers.close();
  }

  /** Its task now runs what is left of a foreground child's run (`work`). */
  adopt(child: DetachableChild, work: Promise<ToolOutput>): this {
    this.#adopted = { child, work };
    return this;
  }

  meta(): TaskMeta {
    return {
      kind: 'local_agent',
      description: this.description,
      owner: this.owner,
      agentId: this.ref.agentId,
      agentType: this.agentType,
      name: this.name,
      spec: this.restart,
    };
  }

  /** As a task: a slot, its loop, its hand-off, then its servers and worktree finished. */
  async run(taskId: string, io: ChildTaskIO): Promise<TaskOutcome> {
    if (this.#adopted) return this.#takeOver(this.#adopted, io);
    this.taskId = taskId;
    const outcome = await this.#runAsTask(io);
    if (!this.workspace) return outcome;
    return { ...outcome, result: await this.finish(outcome.result, io.send) };
  }

  async #runAsTask(io: ChildTaskIO): Promise<TaskOutcome> {
    const { runtime } = this;
    const { agentId } = this.ref;
    // A slot at once when one is free, so the task is running before the Agent call returns.
    if (!runtime.slots.tryAcquire(agentId)) {
      try {
        await runtime.slots.acquire(agentId, io.signal);
      } catch {
        if (this.servers) await this.#closeServers();
        return notRunOutcome(
          'cancelled',
          'Stopped before it started (it was waiting for a slot under --max-parallel).',
        );
      }
    }
    io.running();
    this.options.signal = io.signal;
    try {
      const ending = await this.drive(io.emit);
      io.ended(ending.result.status);
      const signal = runtime.background?.signal ?? io.signal;
      const handed = await handOff(ending.result, runtime, signal);
      const output = this.handedOff(ending, handed, io.send);
      const text = typeof output === 'string' ? output : output.output;
      return outcomeOf(ending.result, text, runtime.transcriptPathFor(agentId) ?? null);
    } finally {
      if (this.servers) await this.#closeServers();
      runtime.slots.release(agentId);
    }
  }

  /** A foreground child sent away: its events and its stop move to the task, its end is awaited. */
  async #takeOver(
    adopted: { child: DetachableChild; work: Promise<ToolOutput> },
    io: ChildTaskIO,
  ): Promise<TaskOutcome> {
    io.running();
    adopted.child.moveTo(io.emit, io.signal);
    const output = await adopted.work;
    const text = typeof output === 'string' ? output : output.output;
    const { ending } = this;
    if (!ending) return notRunOutcome('failed', 'The agent ended before it started.', text);
    io.ended(ending.result.status);
    return outcomeOf(ending.result, text, this.runtime.transcriptPathFor(this.ref.agentId) ?? null);
  }
}

/**
 * An agent whose run has ended, continued with its whole conversation and `prompt` as its next
 * message, in the background, for `owner`; undefined when it cannot be continued.
 */
export function continuedChild(
  runtime: SubagentRuntime,
  agentId: string,
  prompt: string,
  owner: AgentRef,
): ChildRun | undefined {
  const entry = runtime.directory.get(agentId);
  const previous = entry?.options;
  if (!entry || !previous || !runtime.background) return undefined;
  const definition = runtime.findDefinition(entry.agentType);
  const ref = { agentId, parentId: entry.parentId ?? owner.agentId, depth: entry.depth };
  const run = new ChildRun(runtime, ref, owner, {
    agentType: previous.agentType ?? entry.agentType,
    description: previous.description ?? '',
    name: entry.name ?? undefined,
  });
  run.background = true;
  run.record = previous.onEvent;
  run.prompt = prompt;
  run.options = {
    ...previous,
    messages: entry.messages,
    signal: runtime.background.signal,
    background: true,
    // A fresh budget node under the same parent: the tree's limits still hold.
    budget:
      previous.budget?.parent?.child({
        timeMs: definition?.timeBudgetMs,
        tokens: definition?.tokenBudget,
      }) ?? previous.budget,
    inbox: childInbox(runtime, ref),
  };
  run.restart = { agentType: entry.agentType, prompt };
  return run;
}
