// One ACP session of `warren acp`: a session assembled by run-setup.ts (new, or loaded as
// `--resume` would), its events read through its EventFeed and sent as session updates, its
// permission questions (every agent of the tree) put to the client, prompts, cancel and modes.
import { randomUUID } from 'node:crypto';
import {
  type AgentContext,
  type McpServer,
  methods,
  type PromptResponse,
  RequestError,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { clientMcpServers } from '../../acp/client-mcp-servers.js';
import { historyUpdates } from '../../acp/history-updates.js';
import { permissionAnswer, permissionRequest } from '../../acp/permission-question.js';
import { promptContent } from '../../acp/prompt-content.js';
import { type AcpUsage, acpUsage } from '../../acp/prompt-usage.js';
import { isPermissionMode, modeState, SwitchablePolicy } from '../../acp/session-modes.js';
import { SessionUpdates } from '../../acp/session-updates.js';
import { skillCommands, withSkillCommand } from '../../acp/skill-commands.js';
import type { RunResult } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { addUsage, emptyUsage, type Usage } from '../../core/usage.js';
import type { MediaAccepted } from '../../model/model-media.js';
import type { CanUseTool } from '../../permissions/permission-prompt.js';
import { newMainId } from '../../run/main-id.js';
import { runQuery } from '../../run/start-run.js';
import { EventFeed } from '../../session/event-feed.js';
import { TranscriptWriter } from '../../session/transcript-writer.js';
import type { SessionTasks } from '../../tasks/session-tasks.js';
import type { AcpArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { type RunSetup, setUpRun } from '../run/run-setup.js';

export interface OpenSession {
  args: AcpArgs;
  /** Where setup messages go: stderr, for stdout carries the protocol. */
  io: CliIo;
  client: AgentContext;
  cwd: string;
  mcpServers: readonly McpServer[];
  /** The media `initialize` said prompts may carry. */
  media: MediaAccepted;
  /** `session/load`: the session to go on with. */
  load?: string;
}

export class AcpSession {
  readonly setup: RunSetup;
  readonly #client: AgentContext;
  readonly #feed: EventFeed;
  readonly #tasks: SessionTasks;
  readonly #updates: SessionUpdates;
  readonly #modes: SwitchablePolicy;
  readonly #mainAgentId: string;
  readonly #media: MediaAccepted;
  /** Stops the session's background tasks when it closes. */
  readonly #controller = new AbortController();
  #history: Message[];
  #turn: AbortController | undefined;
  #announced = false;
  /** Tokens the tree spent during the prompt in flight: the prompt response's `usage`. */
  #turnUsage: Usage = emptyUsage();
  #resumeTasks: boolean;
  /** Sends updates one after another, so the client sees them in the order they happened. */
  #sending: Promise<void> = Promise.resolve();

  static async open(params: OpenSession): Promise<AcpSession> {
    const updates = new SessionUpdates();
    // The session id exists only once the setup is made; questions come later, in prompts.
    const asking: { ask: CanUseTool } = {
      ask: async () => ({ behavior: 'deny', message: 'No one can be asked yet.' }),
    };
    const setup = await setUpRun(
      { ...params.args, cwd: params.cwd, resume: params.load, continue: false },
      params.io,
      {
        canUseTool: (prompt) => asking.ask(prompt),
        clientMcpServers: {
          where: 'the ACP client',
          servers: clientMcpServers(params.mcpServers),
        },
      },
    );
    const session = new AcpSession(setup, params.client, updates, params.media);
    asking.ask = session.#ask;
    return session;
  }

  private constructor(
    setup: RunSetup,
    client: AgentContext,
    updates: SessionUpdates,
    media: MediaAccepted,
  ) {
    this.setup = setup;
    this.#media = media;
    this.#client = client;
    this.#updates = updates;
    this.#history = setup.history;
    this.#resumeTasks = setup.history.length > 0;
    this.#mainAgentId = newMainId();
    this.#modes = new SwitchablePolicy(setup.permissions, (prompt) => this.#ask(prompt));
    this.#feed = new EventFeed({
      transcript: new TranscriptWriter({
        sessionDir: setup.sessionDir,
        sessionId: setup.sessionId,
        mainAgentId: this.#mainAgentId,
      }),
      warnings: setup.warnings,
    });
    this.#tasks = setup.openTasks({
      sessionId: setup.sessionId,
      signal: this.#controller.signal,
      onEvent: this.#feed.record,
    });
    // Every event of the tree, background agents' included, once, after its transcript line.
    this.#feed.subscribe((event) => {
      setup.observe(event);
      if (event.type === 'usage') addUsage(this.#turnUsage, event.usage);
      for (const update of this.#updates.updatesOf(event)) this.#send(update);
    });
  }

  get sessionId(): string {
    return this.setup.sessionId;
  }

  get modes(): SessionModeState {
    return modeState(this.#modes.mode);
  }

  /** `session/load`: the conversation so far, as updates, before the load is answered. */
  async replayHistory(): Promise<void> {
    for (const update of historyUpdates(this.#history, this.#mainAgentId, this.setup.cwd))
      this.#send(update);
    await this.#sending;
  }

  async prompt(
    blocks: Parameters<typeof promptContent>[0],
    traceparent?: string,
  ): Promise<PromptResponse> {
    if (this.#turn) {
      throw RequestError.invalidRequest(undefined, 'a prompt of this session is still running');
    }
    // A prompt sent before the commands went out still comes after them.
    this.announceCommands();
    const content = promptContent(blocks, this.#media);
    if ('refused' in content) throw RequestError.invalidParams(undefined, content.refused);
    const listed = new Set(
      skillCommands(this.setup.skills.values()).map((command) => command.name),
    );
    const text = withSkillCommand(content.text, listed);
    const controller = new AbortController();
    this.#turn = controller;
    this.#turnUsage = emptyUsage();
    const resume = this.#resumeTasks;
    this.#resumeTasks = false;
    let result: RunResult;
    try {
      const input = this.setup.runInput({
        sessionId: this.sessionId,
        agentId: this.#mainAgentId,
        signal: controller.signal,
        messages: this.#history,
        transcript: this.#feed.transcript,
        tasks: this.#tasks.manager,
        onEvent: this.#feed.record,
        ...(resume ? { resumeTasks: { warn: (warning) => this.#warn(warning) } } : {}),
      });
      result = await this.#feed.drain(
        runQuery(text, {
          ...input,
          permissions: this.#modes.policy,
          promptFiles: content.files,
          ...(traceparent ? { traceparent } : {}),
        }),
      );
    } finally {
      this.#turn = undefined;
    }
    this.#history = result.messages;
    if (result.isError && !controller.signal.aborted) {
      this.#send({
        sessionUpdate: 'agent_message_chunk',
        content: {
          type: 'text',
          text: `\n\nThe run ended ${result.status}: ${result.error ?? ''}`,
        },
      });
    }
    await this.#sending;
    // `usage` is ACP's (unstable) token report; editors and a parent warren read it.
    const response: PromptResponse & { usage: AcpUsage } = {
      stopReason: stopReasonOf(result, controller.signal.aborted),
      usage: acpUsage(this.#turnUsage),
    };
    return response;
  }

  /** The session's skills as slash commands; sent after the session is opened. */
  announceCommands(): void {
    if (this.#announced) return;
    this.#announced = true;
    const availableCommands = skillCommands(this.setup.skills.values());
    if (availableCommands.length > 0)
      this.#send({ sessionUpdate: 'available_commands_update', availableCommands });
  }

  /** `session/cancel`: the prompt in flight stops, its children and their questions with it. */
  cancel(): void {
    this.#turn?.abort();
  }

  setMode(modeId: string): void {
    if (!isPermissionMode(modeId)) {
      throw RequestError.invalidParams(
        undefined,
        `no mode "${modeId}": use ${this.modes.availableModes.map((m) => m.id).join(', ')}`,
      );
    }
    this.#modes.setMode(modeId);
    this.#send({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
  }

  /** Stops what still runs and closes the transcript. */
  async close(): Promise<void> {
    this.#turn?.abort();
    this.#controller.abort();
    await this.#tasks.close();
    this.#feed.close();
    await this.setup.close();
    await this.#sending;
  }

  readonly #ask: CanUseTool = async (prompt) => {
    const toolCallId =
      this.#updates.openCallOf(prompt.agent.agentId, prompt.tool.name) ??
      `${prompt.agent.agentId}:permission-${randomUUID().slice(0, 8)}`;
    // The run's cancel also withdraws the question (the client answers `cancelled`).
    const response = await this.#client.request(
      methods.client.session.requestPermission,
      permissionRequest(this.sessionId, prompt, toolCallId),
      { cancellationSignal: prompt.signal },
    );
    return permissionAnswer(response, prompt);
  };

  #warn(message: string): void {
    this.#send({
      sessionUpdate: 'agent_thought_chunk',
      content: { type: 'text', text: `warning: ${message}` },
    });
  }

  #send(update: SessionUpdate): void {
    const params = { sessionId: this.sessionId, update };
    this.#sending = this.#sending
      .then(() => this.#client.notify(methods.client.session.update, params))
      // The client went away: nothing to show it to; the run goes on to its end or cancel.
      .catch(() => {});
  }
}

function stopReasonOf(result: RunResult, cancelled: boolean): StopReason {
  if (cancelled || result.status === 'cancelled') return 'cancelled';
  if (result.status === 'max_turns') return 'max_turn_requests';
  return 'end_turn';
}
