// The conversation behind the terminal UI: each prompt is one query() of the session, its events
// written to the transcript and shown; the conversation so far goes into the next one. It owns
// the turn in flight (Esc stops it) and the end of the session (nothing left running).
import { randomUUID } from 'node:crypto';
import type { AgentEvent, RunResult } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { query } from '../../query.js';
import { newSessionId } from '../../session/session-paths.js';
import { TranscriptWriter } from '../../session/transcript-writer.js';
import { AgentTree } from '../../telemetry/agent-tree.js';
import { type RunSetup, resumeConversation } from '../run-setup.js';
import { formatUsageTable } from '../usage-table.js';
import { PermissionQueue } from './permission-queue.js';
import { SessionView } from './session-view.js';

export interface InteractiveSessionOptions {
  /** Called after every change worth drawing; the UI throttles what it draws. */
  onChange?: () => void;
  now?: () => number;
}

interface Turn {
  controller: AbortController;
  done: Promise<void>;
}

/** How long the end of the session waits for a stopped turn to wind down. */
const SHUTDOWN_WAIT_MS = 5000;

export class InteractiveSession {
  readonly view: SessionView;
  readonly permissions: PermissionQueue;
  readonly setup: RunSetup;
  sessionId: string;
  /** Prompts typed while a turn ran; each runs when the one before ends. */
  readonly queued: string[] = [];
  /** Prompts sent so far, oldest first: the input's Up/Down history. */
  readonly sent: string[] = [];
  #history: Message[];
  #tree: AgentTree;
  #turn: Turn | undefined;
  #turnStartedAt: number | undefined;
  #pendingWarnings: string[];
  #closed = false;
  #whenIdle: Array<() => void> = [];
  readonly #onChange: () => void;
  readonly #now: () => number;

  /**
   * `setup`'s permission policy must ask `permissions.ask` (its `canUseTool`), which exists
   * only once the session does: build the setup with a callback that forwards to it.
   */
  constructor(setup: RunSetup, options: InteractiveSessionOptions = {}) {
    this.setup = setup;
    this.#onChange = options.onChange ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.view = new SessionView({ cwd: setup.cwd });
    this.permissions = new PermissionQueue({
      store: setup.permissions.store,
      describe: (agentId) => this.view.agents.get(agentId),
      onChange: () => this.#onChange(),
    });
    this.sessionId = setup.sessionId;
    this.#history = setup.history;
    this.#tree = new AgentTree();
    this.#pendingWarnings = [...setup.warnings];
    this.sent.push(...userPrompts(setup.history));
    if (setup.history.length > 0) this.#showResumed(setup.history);
  }

  get busy(): boolean {
    return this.#turn !== undefined;
  }

  /** When the turn in flight started; undefined when idle. */
  get turnStartedAt(): number | undefined {
    return this.#turnStartedAt;
  }

  /** Sends a prompt; while a turn runs it waits for that turn to end. */
  submit(prompt: string): void {
    const text = prompt.trim();
    if (!text || this.#closed) return;
    this.sent.push(text);
    if (this.#turn) {
      this.queued.push(text);
      this.#onChange();
      return;
    }
    this.#start(text);
  }

  /** Resolves once no turn runs and none waits. */
  idle(): Promise<void> {
    if (!this.#turn) return Promise.resolve();
    return new Promise((resolve) => this.#whenIdle.push(resolve));
  }

  /** Stops the turn in flight (Esc). Returns false when nothing ran. */
  interrupt(): boolean {
    if (!this.#turn) return false;
    this.queued.length = 0;
    this.#turn.controller.abort();
    return true;
  }

  /** Forgets the conversation: the next prompt starts a new session. */
  clear(): void {
    this.#history = [];
    this.sessionId = newSessionId();
    this.#tree = new AgentTree();
    this.view.clear();
    this.#onChange();
  }

  /** Goes on with a saved session; throws ConfigError for an unknown one. */
  async resume(sessionId: string): Promise<void> {
    const warnings: string[] = [];
    const resumed = await resumeConversation({
      sessionDir: this.setup.sessionDir,
      sessionId,
      systemPrompt: this.setup.systemPrompt,
      io: { stderr: (text) => warnings.push(text.replace(/^warren: warning: /, '').trim()) },
    });
    this.view.clear();
    this.sessionId = resumed.sessionId;
    this.#history = resumed.history;
    this.#tree = new AgentTree();
    this.sent.push(...userPrompts(resumed.history));
    this.#showResumed(resumed.history);
    for (const warning of warnings)
      this.view.add({ kind: 'notice', tone: 'warning', text: warning });
    this.#onChange();
  }

  /** The usage tree of this session's agents (`/cost`). */
  costTable(): string {
    const now = this.#now();
    const agents = this.#tree.agents(now);
    const started = agents.length > 0 ? Math.min(...agents.map((agent) => agent.startedAt)) : now;
    return formatUsageTable({
      sessionId: this.sessionId,
      agents,
      usage: this.#tree.totalUsage(),
      costUsd: this.#tree.totalCostUsd(),
      durationMs: now - started,
    });
  }

  /** Ends the session: stops the turn, denies the questions left, flushes what was recorded. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.queued.length = 0;
    this.permissions.denyAll();
    const turn = this.#turn;
    if (turn) {
      turn.controller.abort();
      await Promise.race([turn.done, delay(SHUTDOWN_WAIT_MS)]);
    }
    await this.setup.close();
  }

  #start(prompt: string): void {
    this.view.add({ kind: 'user', text: prompt });
    const controller = new AbortController();
    this.#turnStartedAt = this.#now();
    const turn: Turn = { controller, done: Promise.resolve() };
    this.#turn = turn;
    turn.done = this.#run(prompt, controller.signal).finally(() => {
      this.#turn = undefined;
      this.#turnStartedAt = undefined;
      this.#onChange();
      const next = this.queued.shift();
      if (next !== undefined && !this.#closed) return this.#start(next);
      for (const resolve of this.#whenIdle.splice(0)) resolve();
    });
    this.#onChange();
  }

  async #run(prompt: string, signal: AbortSignal): Promise<void> {
    const agentId = `main_${randomUUID().slice(0, 8)}`;
    const transcript = new TranscriptWriter({
      sessionDir: this.setup.sessionDir,
      sessionId: this.sessionId,
      mainAgentId: agentId,
    });
    let result: RunResult | undefined;
    try {
      const run = query({
        prompt,
        options: this.setup.queryOptions({
          sessionId: this.sessionId,
          agentId,
          signal,
          messages: this.#history,
          transcript,
        }),
      });
      for await (const event of run) {
        this.#show(event, transcript);
        if (event.type === 'run_start' && event.agentId === agentId) {
          for (const message of this.#pendingWarnings.splice(0)) {
            this.#show({ agentId, parentId: null, depth: 0, type: 'warning', message }, transcript);
          }
        }
        if (event.type === 'result' && event.agentId === agentId) result = event;
      }
    } catch (error) {
      // Bad options (a broken definition) reject the first event: a line, never a stack.
      const message = error instanceof Error ? error.message : String(error);
      this.view.add({ kind: 'notice', tone: 'error', text: message });
    } finally {
      transcript.close();
    }
    if (result) this.#history = result.messages;
  }

  #show(event: AgentEvent, transcript: TranscriptWriter): void {
    // The transcript line goes to disk before anyone is shown the event.
    transcript.write(event);
    this.#tree.observe(event);
    this.setup.observe(event);
    this.view.observe(event, this.#now());
    this.#onChange();
  }

  #showResumed(history: readonly Message[]): void {
    const prompts = userPrompts(history).length;
    this.view.add({
      kind: 'notice',
      tone: 'info',
      text: `Resumed session ${this.sessionId} (${prompts} prompt${prompts === 1 ? '' : 's'} so far).`,
    });
    const last = history.findLast((message) => message.role === 'assistant');
    if (last?.role === 'assistant') {
      const text = last.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('')
        .trim();
      if (text) this.view.add({ kind: 'assistant', text });
    }
  }
}

function userPrompts(history: readonly Message[]): string[] {
  return history.flatMap((message) =>
    message.role === 'user' && !message.content.startsWith('<') ? [message.content] : [],
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
