// How an agent calls its model and its tools, passed unchanged to every sub-agent it starts.

import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { CommandSandbox } from './command-sandbox.js';
import type { AgentEvent } from './events.js';

/** Prices of models (see model/pricing.ts); the loop only hands it to `priceOf`. */
export interface PriceTableRef {
  source: string;
  date: string;
  models: Readonly<
    Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }>
  >;
  base?: PriceTableRef;
}

export interface RetryOptions {
  /** Attempts after the first. */
  maxRetries?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /**
   * No retry starts once this long has passed since the call's first attempt, so a server that
   * keeps failing or never answers ends the call in bounded time. Default 5 minutes.
   */
  maxElapsedMs?: number;
}

export interface InheritedOptions {
  retry?: RetryOptions;
  /**
   * A model request with no response, or no next chunk of a streamed reply, for this long is
   * aborted and retried. Default: 2 minutes. Infinity turns it off.
   */
  requestTimeoutMs?: number;
  /** Longest a tool call may run unless the tool sets its own. Default: 15 minutes. */
  toolTimeoutMs?: number;
  maxOutputTokens?: number;
  providerOptions?: SharedV4ProviderOptions;
  /** Base URL for `openai-compatible:` model specs, the parent's and a child's own. */
  baseUrl?: string;
  /** One last turn without tools when a limit ends the run, so the agent can report. Default: true. */
  graceTurn?: boolean;
  /**
   * A spent token or cost budget pauses the agent instead of ending it with a report: no grace
   * turn, no model request after it, its conversation as it stands (resume it with a larger
   * budget). Default: false.
   */
  pauseAtBudget?: boolean;
  /**
   * Stream replies as they are written (`message_delta` per piece). Default true. With false a
   * reply is fetched whole and comes as one delta: less work per call when nobody watches text
   * arrive.
   */
  stream?: boolean;
  /**
   * Called with every event a loop makes, of this agent and of every agent below it
   * (background ones included), the moment it happens, before anyone is handed it: where
   * transcripts are written, so a tool result is on disk before the next model request. Must
   * not throw. Events made outside any loop come only in the stream: a host that wants each
   * event once reads both through an EventFeed (session/event-feed.ts).
   */
  onEvent?: (event: AgentEvent) => void;
  /** What models cost, for `costUsd` and cost budgets. Default: the built-in table. */
  prices?: PriceTableRef;
  /** The sandbox every shell command of the tree runs in (src/sandbox/); none when turned off. */
  commandSandbox?: CommandSandbox;
}

/**
 * Exactly the inherited fields of a larger options object (each present, undefined or not). Every
 * field written out: a field added to InheritedOptions that is missing here does not compile, and
 * an agent's loop makes this once per agent (a thousand children, a thousand copies).
 */
export function inheritedOptions(options: InheritedOptions): InheritedOptions {
  const inherited: { [Field in keyof Required<InheritedOptions>]: InheritedOptions[Field] } = {
    retry: options.retry,
    requestTimeoutMs: options.requestTimeoutMs,
    toolTimeoutMs: options.toolTimeoutMs,
    maxOutputTokens: options.maxOutputTokens,
    providerOptions: options.providerOptions,
    baseUrl: options.baseUrl,
    graceTurn: options.graceTurn,
    pauseAtBudget: options.pauseAtBudget,
    stream: options.stream,
    onEvent: options.onEvent,
    prices: options.prices,
    commandSandbox: options.commandSandbox,
  };
  return inherited;
}
