// The words of remote sub-agents, whatever durable engine runs them: what travels to a worker
// (a child's spec: plain JSON, never a key), what comes back (its progress and its result), and
// the RemoteExecutor a client side implements. Restate is one implementation (src/remote/).
import type { RunResult } from './events.js';
import type { PermissionMode, PermissionRule } from './permission-policy.js';

/**
 * Everything a worker needs to run one child, and nothing it must not see: no API key (a
 * worker reads its own environment), no conversation but the child's own prompt.
 */
export interface RemoteChildSpec {
  agentId: string;
  parentId: string;
  depth: number;
  /** Its path in the tree (`main/Agent#1/explore`), as a local child's would be. */
  agentPath: string;
  description: string;
  /** Its first user message. */
  prompt: string;
  /** Its agent span's W3C traceparent, when the run is traced: its remote run continues it. */
  traceparent?: string;
  /**
   * The definition it runs as (an `AgentDefinition` as JSON), less what only the parent's
   * machine has: its hooks and its MCP servers.
   */
  definition: Readonly<Record<string, unknown>>;
  /** The definitions its own Agent tool may start, the same way. */
  definitions: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** The tools it may have (names), as its parent's list narrowed by its definition. */
  tools: readonly string[];
  /** `provider:model`, and the base URL for an openai-compatible one. */
  model: { spec: string; baseUrl?: string };
  /** Where its tools work, on the worker's machine. */
  cwd: string;
  /**
   * It works in a git worktree of its own, made from `cwd` on the worker (and finished there),
   * branching from `base` (`head` when absent).
   */
  worktree?: { base?: string };
  budget: {
    /** Epoch ms: its time budget (its own, or what its ancestors have left) ends here. */
    deadline?: number;
    /** How long the tree has to wind down after the deadline. */
    windDownMs?: number;
    tokens?: number;
    costUsd?: number;
    maxTurns: number;
  };
  /** Its parent's permission rules; its definition's mode and deny list apply on top. */
  permissions: {
    mode: PermissionMode;
    allow: readonly PermissionRule[];
    deny: readonly PermissionRule[];
    ask: readonly PermissionRule[];
  };
  /** How deep its own children may go. */
  maxDepth: number;
  /** How it calls its model and tools (the parent's inherited options that are data). */
  calls: {
    requestTimeoutMs?: number;
    toolTimeoutMs?: number;
    maxOutputTokens?: number;
    graceTurn?: boolean;
  };
  /**
   * A background child's ending also goes to this durable inbox (key `inbox`), so its
   * notification survives its parent's process being down.
   */
  notify?: { inbox: string; taskId: string };
}

/** How far a remote child got, as its worker recorded it at its last step. */
export interface RemoteProgress {
  state: 'running' | 'ended';
  turns: number;
  toolCalls: number;
  tokens: number;
  /** Epoch ms of its last finished step; null before any. */
  lastActivityAt: number | null;
  lastToolName: string | null;
  /** Its latest reply text, cut short: what TaskOutput shows while it runs. */
  lastText: string;
}

/** Where a child stands before its first step. */
export function startingProgress(): RemoteProgress {
  return {
    state: 'running',
    turns: 0,
    toolCalls: 0,
    tokens: 0,
    lastActivityAt: null,
    lastToolName: null,
    lastText: '',
  };
}

/** A child's ending as its durable inbox keeps it. */
export interface RemoteEnding {
  taskId: string;
  agentId: string;
  result: RunResult;
}

/**
 * The client side of a durable engine that runs sub-agents on other machines. The loop never
 * sees it: agents/ starts children through it, tasks/ runs background ones as `remote_agent`
 * tasks. A worker runs each spec with `agentLoop()` and a StepRunner of the same engine
 * (core/step-runner.ts). Every method is keyed by agent id, so any process (the one that
 * started the child, or one resumed after a crash) can pick a child up again.
 */
export interface RemoteExecutor {
  /** Shown in messages: `restate`. */
  readonly name: string;
  /**
   * Starts the child. Idempotent per agent id: submitting an id again (a retry, a resumed
   * parent) attaches to the child already running rather than starting a second one.
   */
  submit(spec: RemoteChildSpec, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves with the child's result once it has ended (a cancelled child ends `cancelled`,
   * with what it had). Safe to call again, from any process: the same result every time.
   * Rejects when `signal` aborts first, or for an agent id never submitted.
   */
  result(agentId: string, signal?: AbortSignal): Promise<RunResult>;
  /** Where the child stands; undefined for an agent id never submitted. */
  progress(agentId: string, signal?: AbortSignal): Promise<RemoteProgress | undefined>;
  /** Stops the child; children it is waiting for are stopped with it. Its result says how it ended. */
  cancel(agentId: string): Promise<void>;
  /** A message the running child reads before a later model call. False when it has ended. */
  send(agentId: string, text: string): Promise<boolean>;
  /** Endings posted to the durable inbox `key` and not yet acknowledged, oldest first. */
  inbox(key: string): Promise<RemoteEnding[]>;
  /** The ending of `taskId` was delivered: the inbox forgets it. */
  acknowledge(key: string, taskId: string): Promise<void>;
}
