// Anthropic makes a cache entry usable only once the response that wrote it has begun. Siblings
// started in one assistant message send the same prefix (tools and system prompt) at the same
// moment, so without help each one writes it and none reads it. The gate lets the first request
// with a given prefix go, and holds the others until its response begins (or it fails, or a
// bound passes); they then read the prefix. A prefix seen in the last five minutes (the cache's
// lifetime, renewed by every use) passes at once.
import { createHash } from 'node:crypto';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Message } from '../core/messages.js';
import type { Tool } from '../core/tool.js';

/** Anthropic's default cache lifetime; each read renews it. */
export const CACHE_LIFETIME_MS = 5 * 60_000;
/** Longest a request waits for the first of its prefix: a stuck leader must not stall the rest. */
const MAX_WAIT_MS = 30_000;

/** What the request that waited (or led) reports back: the response began, or it failed. */
export interface GatePass {
  started(): void;
  failed(): void;
}

type Entry = { warmUntil: number } | { released: Promise<void>; release: () => void };

const NO_OP: GatePass = { started() {}, failed() {} };

export class PromptCacheGate {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Waits, if another request with this prefix is about to write it; the leader gets a pass. */
  async enter(key: string, signal: AbortSignal): Promise<GatePass> {
    const entry = this.#entries.get(key);
    if (entry && 'warmUntil' in entry && entry.warmUntil > this.#now()) {
      entry.warmUntil = this.#now() + CACHE_LIFETIME_MS;
      return NO_OP;
    }
    if (entry && 'released' in entry) {
      await waitFor(entry.released, MAX_WAIT_MS, signal);
      return NO_OP;
    }
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#entries.set(key, { released, release });
    let done = false;
    const finish = (warm: boolean) => {
      if (done) return;
      done = true;
      if (warm) this.#entries.set(key, { warmUntil: this.#now() + CACHE_LIFETIME_MS });
      else this.#entries.delete(key);
      release();
    };
    return { started: () => finish(true), failed: () => finish(false) };
  }
}

const gates = new WeakMap<LanguageModelV4, PromptCacheGate>();

/** One gate per model object: a cache is per model, and children that inherit share the object. */
export function promptCacheGate(model: LanguageModelV4): PromptCacheGate {
  let gate = gates.get(model);
  if (!gate) {
    gate = new PromptCacheGate();
    gates.set(model, gate);
  }
  return gate;
}

const toolIds = new WeakMap<Tool, number>();
let nextToolId = 0;

/**
 * The prefix a request shares with others: its tools (by object; one object, one schema) and its
 * system messages. Two requests with the same key send the same bytes before the first message.
 */
export function prefixKey(tools: readonly Tool[], messages: readonly Message[]): string {
  const hash = createHash('sha256');
  for (const tool of tools) {
    let id = toolIds.get(tool);
    if (id === undefined) {
      id = nextToolId++;
      toolIds.set(tool, id);
    }
    hash.update(`${id},`);
  }
  for (const message of messages) {
    if (message.role === 'system') hash.update(`\0${message.content}`);
  }
  return hash.digest('hex');
}

async function waitFor(released: Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  try {
    await Promise.race([
      released,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = () => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  signal.throwIfAborted();
}
