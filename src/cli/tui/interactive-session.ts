// The conversation behind the terminal UI: each prompt one query() of the session (its events
// written to the transcript and shown), its background tasks outliving the prompt, the turn in
// flight (Esc interrupts, Ctrl+B sends children to the background) and the session's end.
import { messageOf } from '../../core/error-message.js';
import type { AgentEvent, RunResult } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { FINAL_TASK_STATUSES, type TaskRecord } from '../../core/tasks.js';
import { newMainId } from '../../run/main-id.js';
import type { Query } from '../../run/query-options.js';
import { runQuery } from '../../run/start-run.js';
import { EventFeed } from '../../session/event-feed.js';
import { newSessionId } from '../../session/session-paths.js';
import { TranscriptWriter } from '../../session/transcript-writer.js';
import type { SessionTasks } from '../../tasks/session-tasks.js';
import { AgentTree } from '../../telemetry/agent-tree.js';
import { formatUsageTable } from '../commands/usage-table.js';
import { resumeConversation } from '../run/resume-conversation.js';
import type { RunSetup } from '../run/run-setup.js';
import { BACKGROUND_TURN, wakeWith } from './notification-turn.js';
import { PermissionQueue } from './permission-queue.js';
import { historyEntries, recordedSession } from './resumed-history.js';
import { SessionView } from './session-view.js';
import { userPrompts } from './user-prompts.js';

export interface InteractiveSessionOptions {
  /** Called after every change worth drawing; the UI throttles what it draws. */
  onChange?: () => void;
  now?: () => number;
}

interface Turn {
  controller: AbortController;
  /** The query, once it has been made. */
  run: Query | undefined;
  done: Promise<void>;
}

/** One session id's lasting parts: its main agent, transcript and background tasks. */
interface Conversation {
  sessionId: string;
  /** The same main agent for every prompt, so the notifications of its tasks reach it. */
  mainAgentId: string;
  /** Its events, each written to its transcript and then shown once. */
  feed: EventFeed;
  tasks: SessionTasks;
  /** Stops the session's background tasks. */
  controller: AbortController;
  /** The next prompt restarts the tasks a stopped process left running (a resumed session). */
  resumeTasks: boolean;
}

/** How long the end of the session waits for a stopped turn to wind down. */
const SHUTDOWN_WAIT_MS = 5000;

export class InteractiveSession {
  readonly view: SessionView;
  readonly permissions: PermissionQueue;
  readonly setup: RunSetup;
  /** Prompts typed while a turn ran; each runs when the one before ends. */
  readonly queued: string[] = [];
  /** Prompts sent so far, oldest first: the input's Up/Down history. */
  readonly sent: string[] = [];
  #conversation: Conversation;
  #history: Message[];
  #tree: AgentTree;
  #turn: Turn | undefined;
  #turnStartedAt: number | undefined;
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
    const resumed = setup.history.length > 0;
    this.#tree = new AgentTree();
    this.#conversation = this.#open(setup.sessionId, resumed, setup.warnings);
    this.#history = setup.history;
    this.sent.push(...userPrompts(setup.history));
    if (resumed) this.#showResumed(setup.history);
  }

  get sessionId(): string {
    return this.#conversation.sessionId;
  }

  get busy(): boolean {
    return this.#turn !== undefined;
  }

  /** When the turn in flight started; undefined when idle. */
  get turnStartedAt(): number | undefined {
    return this.#turnStartedAt;
  }

  /** Every background task of the session, oldest first (earlier processes' included). */
  tasks(): TaskRecord[] {
    return this.#conversation.tasks.manager.list();
  }

  /** Whether background tasks of the session still run. */
  get hasRunningTasks(): boolean {
    return this.tasks().some((task) => !FINAL_TASK_STATUSES.has(task.status));
  }

  /** What a task has produced: its whole result once ended, else its output so far. */
  taskOutput(taskId: string): string {
    return this.#conversation.tasks.manager.output(taskId);
  }

  /** The transcript file of one of the session's agents. */
  transcriptOf(agentId: string): string {
    return this.#conversation.feed.transcript.pathFor(agentId);
  }

  /** Stops a background task and what it started; its notification says how it ended. */
  async stopTask(taskId: string): Promise<TaskRecord> {
    return this.#conversation.tasks.manager.stop(taskId, 'Stopped by the user.');
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

  /**
   * Ends the main agent's turn in flight (Esc); its background tasks keep running. Returns
   * false when nothing ran.
   */
  interrupt(): boolean {
    const turn = this.#turn;
    if (!turn) return false;
    this.queued.length = 0;
    // Before the query exists there is no turn to end yet: stop the run instead.
    if (turn.run) turn.run.interrupt();
    else turn.controller.abort();
    return true;
  }

  /**
   * Sends the main agent's running sub-agents to the background (Ctrl+B): their calls return
   * at once and they go on as background tasks. Returns how many were sent.
   */
  sendToBackground(): number {
    return this.#turn?.run?.sendToBackground().length ?? 0;
  }

  /** Forgets the conversation: the next prompt starts a new session. */
  async clear(): Promise<void> {
    await this.#replace(newSessionId(), false);
    this.#history = [];
    this.#tree = new AgentTree();
    this.view.clear();
    this.#onChange();
  }

  /** Goes on with a saved session and the tasks it left running; throws ConfigError for an unknown one. */
  async resume(sessionId: string): Promise<void> {
    const warnings: string[] = [];
    const resumed = await resumeConversation({
      sessionDir: this.setup.sessionDir,
      sessionId,
      systemPrompt: this.setup.systemPrompt,
      io: { stderr: (text) => warnings.push(text.replace(/^warren: warning: /, '').trim()) },
    });
    await this.#replace(resumed.sessionId, true);
    this.view.clear();
    this.#history = resumed.history;
    this.#tree = new AgentTree();
    this.sent.push(...userPrompts(resumed.history));
    this.#showResumed(resumed.history);
    for (const warning of warnings) this.#warn(warning);
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

  /**
   * Ends the session: stops the turn and every background task (their processes too), denies
   * the questions left, flushes what was recorded.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.queued.length = 0;
    this.permissions.denyAll();
    const turn = this.#turn;
    this.#conversation.controller.abort();
    if (turn) {
      turn.controller.abort();
      await Promise.race([turn.done, delay(SHUTDOWN_WAIT_MS)]);
    }
    await this.#end(this.#conversation);
    await this.setup.close();
  }

  /** @param warnings said once the conversation's main agent first starts */
  #open(sessionId: string, resumeTasks: boolean, warnings: readonly string[]): Conversation {
    const mainAgentId = newMainId();
    const controller = new AbortController();
    const feed = new EventFeed({
      transcript: new TranscriptWriter({
        sessionDir: this.setup.sessionDir,
        sessionId,
        mainAgentId,
      }),
      warnings,
    });
    feed.subscribe((event) => this.#show(event));
    return {
      sessionId,
      mainAgentId,
      feed,
      controller,
      resumeTasks,
      tasks: this.setup.openTasks({ sessionId, signal: controller.signal, onEvent: feed.record }),
    };
  }

  /** The session's tasks stop, its transcript is flushed, and another takes its place. */
  async #replace(sessionId: string, resumeTasks: boolean): Promise<void> {
    const old = this.#conversation;
    // The setup's warnings, if no prompt has run yet, are said in the next conversation.
    this.#conversation = this.#open(sessionId, resumeTasks, old.feed.unsaidWarnings());
    old.controller.abort();
    await this.#end(old);
  }

  async #end(conversation: Conversation): Promise<void> {
    await conversation.tasks.close();
    conversation.feed.close();
  }

  #start(prompt: string, from: 'user' | 'background' = 'user'): void {
    this.view.add(from === 'user' ? { kind: 'user', text: prompt } : BACKGROUND_TURN);
    const controller = new AbortController();
    this.#turnStartedAt = this.#now();
    const turn: Turn = { controller, run: undefined, done: Promise.resolve() };
    this.#turn = turn;
    turn.done = this.#run(prompt, turn).finally(() => {
      this.#turn = undefined;
      this.#turnStartedAt = undefined;
      this.#onChange();
      // What reported while the turn ran, and the turn did not read, goes first, on its own.
      if (this.#wake()) return;
      const next = this.queued.shift();
      if (next !== undefined && !this.#closed) return this.#start(next);
      for (const resolve of this.#whenIdle.splice(0)) resolve();
    });
    this.#onChange();
  }

  async #run(prompt: string, turn: Turn): Promise<void> {
    const conversation = this.#conversation;
    const { mainAgentId: agentId, feed } = conversation;
    const resumeTasks = conversation.resumeTasks;
    conversation.resumeTasks = false;
    let result: RunResult | undefined;
    try {
      const run = runQuery(
        prompt,
        this.setup.runInput({
          sessionId: conversation.sessionId,
          agentId,
          signal: turn.controller.signal,
          messages: this.#history,
          transcript: feed.transcript,
          tasks: conversation.tasks.manager,
          onEvent: feed.record,
          // The session keeps its background tasks across prompts: the turn ends when the
          // model stops, and what they report later wakes the main agent (#wake).
          waitForBackground: false,
          ...(resumeTasks ? { resumeTasks: { warn: (warning) => this.#warn(warning) } } : {}),
        }),
      );
      turn.run = run;
      result = await feed.drain(run);
    } catch (error) {
      // Bad options (a broken definition) reject the first event: a line, never a stack.
      const message = messageOf(error);
      this.view.add({ kind: 'notice', tone: 'error', text: message });
    }
    if (result && conversation === this.#conversation) this.#history = result.messages;
  }

  /** A turn of its own for what reported to the main agent while no turn ran; true if one started. */
  #wake(): boolean {
    if (this.#turn || this.#closed) return false;
    const { tasks, mainAgentId } = this.#conversation;
    return wakeWith(tasks.manager, mainAgentId, (text) => this.#start(text, 'background'));
  }

  /** An event of the conversation, once its transcript line is on disk (the feed's order). */
  #show(event: AgentEvent): void {
    this.#tree.observe(event);
    this.setup.observe(event);
    this.view.observe(event, this.#now());
    // Ended while no turn ran: the idle main agent is woken with it.
    if (event.type === 'task_notification' && event.agentId === this.#conversation.mainAgentId) {
      queueMicrotask(() => this.#wake());
    }
    this.#onChange();
  }

  #warn(text: string): void {
    this.view.add({ kind: 'notice', tone: 'warning', text });
    this.#onChange();
  }

  /** The conversation so far, as it was shown, and what its agents spent (status line, /cost). */
  #showResumed(history: readonly Message[]): void {
    const recorded = recordedSession(this.setup.sessionDir, this.sessionId);
    for (const entry of historyEntries(history, { cwd: this.setup.cwd, ...recorded })) {
      this.view.add(entry);
    }
    for (const { event, at } of recorded.events) {
      if (event.type === 'usage') this.view.observe(event, at);
      this.#tree.observe(event, at);
    }
    const prompts = userPrompts(history).length;
    this.view.add({
      kind: 'notice',
      tone: 'info',
      text: `Resumed session ${this.sessionId} (${prompts} prompt${prompts === 1 ? '' : 's'} so far).`,
    });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
