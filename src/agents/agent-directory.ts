// Every agent of one run, foreground and background: where it sits in the tree
// (`main/Agent#2/explore`), its name, its status, and what it takes to continue it. SendMessage
// and ListAgents read it; who may address whom is decided here.
import type { AgentRef, AgentStatus, RunResult } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { SubagentOptions } from './subagent-context.js';

export interface AgentEntry extends AgentRef {
  agentType: string;
  description: string;
  /** The `name` given at spawn; unique among live agents. */
  name: string | null;
  /** Its path in the tree, as the loop reports it (`main/Agent#2/explore`). */
  path: string;
  status: AgentStatus | 'running';
  background: boolean;
  /** Its model ended its turn and it waits for its own background work (not a stall). */
  waiting: boolean;
  /** The task of its current (or last) background run. */
  taskId: string | null;
  lastActivityAt: number;
  /** How the agent runs, to continue it; undefined for the main agent. */
  options: SubagentOptions | undefined;
  /** Its conversation, live while it runs. */
  messages: readonly Message[];
  /** It runs on a worker (agents/remote-port.ts): messages go through the executor. */
  remote?: boolean;
}

export class AgentDirectory {
  readonly #agents = new Map<string, AgentEntry>();
  readonly #children = new Map<string, AgentEntry[]>();
  readonly #ended = new Map<string, Array<() => void>>();

  /** The main agent: the root every path starts from. */
  addRoot(ref: AgentRef & { agentType: string; description: string; path: string }): AgentEntry {
    return this.#put({ ...ref, options: undefined, name: null });
  }

  /** A sub-agent that starts now, or one that is continued (same id: its entry is kept). */
  started(
    options: SubagentOptions,
    extra: { name?: string; background: boolean; taskId?: string },
  ): AgentEntry {
    const known = this.#agents.get(options.agentId);
    if (known) {
      Object.assign(known, {
        status: 'running',
        background: extra.background,
        taskId: extra.taskId ?? known.taskId,
        lastActivityAt: Date.now(),
        options,
      });
      return known;
    }
    const parentId = options.parentId ?? null;
    const type = options.agentType ?? 'agent';
    const parentPath = parentId ? (this.#agents.get(parentId)?.path ?? parentId) : '';
    return this.#put({
      agentId: options.agentId,
      parentId,
      depth: options.depth ?? 1,
      agentType: type,
      description: options.description ?? '',
      path: options.agentPath ?? `${parentPath}/${type}`,
      name: extra.name ?? null,
      options,
      background: extra.background,
      taskId: extra.taskId ?? null,
    });
  }

  /** A child that runs on a worker: it has no options here, and cannot be continued from here. */
  startedRemote(
    ref: AgentRef & { agentType: string; description: string; path: string },
    extra: { name?: string; background: boolean; taskId?: string },
  ): AgentEntry {
    const entry = this.#put({
      ...ref,
      name: extra.name ?? null,
      options: undefined,
      background: extra.background,
      taskId: extra.taskId ?? null,
    });
    entry.remote = true;
    return entry;
  }

  /** Its run ended: keep the conversation to continue it from, and wake whoever waits. */
  ended(result: RunResult): void {
    const entry = this.#agents.get(result.agentId);
    if (!entry) return;
    entry.status = result.status;
    entry.messages = result.messages;
    // What continuing it needs; its stop signal and its inbox were its run's (a continued run
    // gets new ones), and kept here they would hold their listeners until the run ends.
    if (entry.options) {
      entry.options.signal = undefined;
      entry.options.inbox = undefined;
    }
    entry.lastActivityAt = Date.now();
    for (const wake of this.#ended.get(result.agentId) ?? []) wake();
    this.#ended.delete(result.agentId);
  }

  waiting(agentId: string, waiting: boolean): void {
    const entry = this.#agents.get(agentId);
    if (entry) entry.waiting = waiting;
  }

  /** Resolves once the agent's current run has ended (at once if it is not running). */
  whenEnded(agentId: string): Promise<void> {
    if (this.#agents.get(agentId)?.status !== 'running') return Promise.resolve();
    return new Promise((resolve) => {
      const waiting = this.#ended.get(agentId) ?? [];
      waiting.push(resolve);
      this.#ended.set(agentId, waiting);
    });
  }

  get(agentId: string): AgentEntry | undefined {
    return this.#agents.get(agentId);
  }

  /** The running agent that goes by `name`, if any: names are unique among live agents. */
  liveByName(name: string): AgentEntry | undefined {
    for (const entry of this.#agents.values()) {
      if (entry.name === name && entry.status === 'running') return entry;
    }
    return undefined;
  }

  /**
   * Agents `callerId` may address: its descendants and its siblings (same parent); never an
   * unrelated branch (a sibling's children included), itself or its ancestors. Tree order.
   */
  addressableFrom(callerId: string): AgentEntry[] {
    const caller = this.#agents.get(callerId);
    if (!caller) return [];
    const found: AgentEntry[] = [];
    const descend = (id: string) => {
      for (const child of this.#children.get(id) ?? []) {
        found.push(child);
        descend(child.agentId);
      }
    };
    if (caller.parentId) {
      for (const sibling of this.#children.get(caller.parentId) ?? []) {
        if (sibling.agentId !== callerId) found.push(sibling);
      }
    }
    descend(callerId);
    return found;
  }

  /** The agent `to` (an id, or a name given at spawn) as `callerId` may address it. */
  resolve(callerId: string, to: string): AgentEntry | undefined {
    const addressable = this.addressableFrom(callerId);
    const byId = addressable.find((entry) => entry.agentId === to);
    if (byId) return byId;
    const named = addressable.filter((entry) => entry.name === to);
    return named.find((entry) => entry.status === 'running') ?? named.at(-1);
  }

  /** How many agents below `agentId` (at any depth) still run. */
  runningBelow(agentId: string): number {
    let count = 0;
    for (const child of this.#children.get(agentId) ?? []) {
      if (child.status === 'running') count++;
      count += this.runningBelow(child.agentId);
    }
    return count;
  }

  /** Whether `agentId` is `ancestorId` or below it. */
  isWithin(agentId: string, ancestorId: string): boolean {
    for (let id: string | null = agentId; id; id = this.#agents.get(id)?.parentId ?? null) {
      if (id === ancestorId) return true;
    }
    return false;
  }

  #put(
    fields: Omit<
      AgentEntry,
      'status' | 'lastActivityAt' | 'messages' | 'background' | 'taskId' | 'waiting'
    > &
      Partial<Pick<AgentEntry, 'background' | 'taskId'>>,
  ): AgentEntry {
    const entry: AgentEntry = {
      background: false,
      taskId: null,
      ...fields,
      waiting: false,
      status: 'running',
      lastActivityAt: Date.now(),
      messages: fields.options?.messages ?? [],
    };
    this.#agents.set(entry.agentId, entry);
    if (entry.parentId) {
      const siblings = this.#children.get(entry.parentId) ?? [];
      siblings.push(entry);
      this.#children.set(entry.parentId, siblings);
    }
    return entry;
  }
}
