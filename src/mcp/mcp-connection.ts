// One MCP server as warren holds it: an SDK client over its transport, started with a deadline,
// its tool list read once, restarted once after a crash and then given up on, closed for good.

import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '../core/error-message.js';
import { McpServerGone } from './mcp-server-gone.js';
import { openTransport } from './open-transport.js';
import type { McpServerSpec } from './server-config.js';
import { describeLaunch, serverEnvironment } from './server-environment.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

export type McpServerStatus = 'starting' | 'connected' | 'crashed' | 'failed' | 'closed';

/** warren as an MCP client introduces itself with this. */
const CLIENT_INFO = { name: 'warren', version: '0.1.0' };
/** A server that lists more tools than this is cut off: no model needs them all. */
const MAX_TOOL_PAGES = 20;

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (text: string) => void;
}

export class McpConnection {
  readonly spec: McpServerSpec;
  readonly #cwd: string;
  readonly #startTimeoutMs: number;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #status: McpServerStatus = 'starting';
  #restarted = false;
  #restarting: Promise<void> | undefined;
  #failure: string | undefined;
  #tools: McpToolInfo[] = [];

  constructor(spec: McpServerSpec, options: { cwd: string; startTimeoutMs: number }) {
    this.spec = spec;
    this.#cwd = options.cwd;
    this.#startTimeoutMs = options.startTimeoutMs;
  }

  get name(): string {
    return this.spec.name;
  }

  get status(): McpServerStatus {
    return this.#status;
  }

  /** Why the server is not usable, once it is not. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** The tools the server listed when it started. */
  get tools(): readonly McpToolInfo[] {
    return this.#tools;
  }

  /** The server's process id, for a stdio server that is running. */
  get pid(): number | undefined {
    return this.#transport instanceof ProcessGroupStdioTransport ? this.#transport.pid : undefined;
  }

  /**
   * Connects and lists the tools, within the start timeout.
   * @throws Error saying why the server could not start (it is then stopped and `failed`)
   */
  async start(signal?: AbortSignal): Promise<void> {
    try {
      await this.#connect(signal);
      this.#tools = await this.#listTools(signal);
      if (this.#status === 'starting') this.#status = 'connected';
    } catch (error) {
      const reason = this.#describe(error, signal);
      await this.#stop();
      this.#fail(reason);
      throw new Error(reason);
    }
  }

  /**
   * Calls a tool by the server's own name. A server that crashed earlier is restarted first
   * (once in its life); a cancelled call sends `notifications/cancelled` (the SDK does).
   * @throws McpServerGone when the server is or goes away; other errors as the SDK throws them
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    await this.#ensureRunning(options.signal);
    const client = this.#client!;
    try {
      return (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
        signal: options.signal,
        // The loop's own timeout (the signal) ends the call first; this only backs it up.
        timeout: options.timeoutMs + 1_000,
        onprogress: options.onProgress
          ? ({ progress, total, message }) =>
              options.onProgress!(
                `${message ?? 'progress'}: ${progress}${total === undefined ? '' : `/${total}`}\n`,
              )
          : undefined,
      })) as CallToolResult;
    } catch (error) {
      if (this.#client !== client || this.#status === 'crashed' || this.#status === 'failed') {
        throw new McpServerGone(this.#goneMessage('stopped during the call'));
      }
      throw error;
    }
  }

  /** Stops the server for good; calls after this fail. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#status === 'closed') return;
    this.#status = 'closed';
    this.#failure ??= 'it was closed';
    await this.#restarting?.catch(() => {});
    await this.#stop();
  }

  async #connect(signal?: AbortSignal): Promise<void> {
    const { config } = this.spec;
    const deadline = AbortSignal.timeout(this.#startTimeoutMs);
    const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      await this.#connectWith(await openTransport(config, { cwd: this.#cwd }), stop);
    } catch (error) {
      // A server written before Streamable HTTP answers its POST with 404 or 405.
      const refused =
        error instanceof StreamableHTTPError && (error.code === 404 || error.code === 405);
      if (config.transport !== 'http' || !config.sseFallback || !refused || stop.aborted) {
        throw error;
      }
      await this.#stop();
      await this.#connectWith(await openTransport(config, { cwd: this.#cwd, remote: 'sse' }), stop);
    }
  }

  async #connectWith(transport: Transport, stop: AbortSignal): Promise<void> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    this.#client = client;
    this.#transport = transport;
    client.onclose = () => this.#lost(client);
    // Transport noise (a stray line on stdout) is not a failure; a dead pipe shows as a close.
    client.onerror = () => {};
    await raceAbort(
      client.connect(transport, { signal: stop, timeout: this.#startTimeoutMs }),
      stop,
    );
  }

  async #listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const client = this.#client!;
    if (!client.getServerCapabilities()?.tools) return [];
    const stop = AbortSignal.any([
      AbortSignal.timeout(this.#startTimeoutMs),
      ...(signal ? [signal] : []),
    ]);
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        signal: stop,
        timeout: this.#startTimeoutMs,
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** The client's connection closed. Ours to close: fine; otherwise the server crashed. */
  #lost(client: Client): void {
    if (this.#client !== client || this.#status === 'closed' || this.#status === 'starting') {
      return;
    }
    if (this.#restarted) this.#fail(this.#goneMessage('stopped again after its restart'));
    else this.#status = 'crashed';
  }

  async #ensureRunning(signal: AbortSignal): Promise<void> {
    if (this.#status === 'connected') return;
    if (this.#status === 'crashed') {
      this.#restarting ??= this.#restart(signal).finally(() => {
        this.#restarting = undefined;
      });
      await this.#restarting;
    }
    // Read again: the restart above changed it.
    if (this.status !== 'connected') {
      throw new McpServerGone(
        `The MCP server "${this.name}" is not available: ${this.#failure ?? this.#status}.`,
      );
    }
  }

  async #restart(signal: AbortSignal): Promise<void> {
    this.#restarted = true;
    this.#status = 'starting';
    await this.#stop();
    try {
      await this.#connect(signal);
      this.#status = 'connected';
    } catch (error) {
      const reason = this.#describe(error, signal);
      await this.#stop();
      this.#fail(`it crashed, and its restart failed: ${reason}`);
    }
  }

  #fail(reason: string): void {
    if (this.#status === 'closed') return;
    this.#status = 'failed';
    this.#failure = reason;
  }

  #goneMessage(what: string): string {
    const exit =
      this.#transport instanceof ProcessGroupStdioTransport
        ? ` (it ${this.#transport.describeExit()})`
        : '';
    const next =
      this.#status === 'failed'
        ? 'It had been restarted once already, so it is now marked failed and its tools no longer work.'
        : 'It will be restarted on the next call of one of its tools.';
    return `The MCP server "${this.name}" ${what}${exit}. ${next}`;
  }

  /** Why a start failed, in words a person can act on. */
  #describe(error: unknown, signal?: AbortSignal): string {
    if (signal?.aborted) return 'the run was cancelled while it started';
    const message = messageOf(error);
    if (/timed? ?out|TimeoutError|aborted/i.test(message) || isTimeout(error)) {
      const limit = `it did not answer within ${this.#startTimeoutMs} ms (MCP_TIMEOUT sets the limit)`;
      return `${limit}${this.#launchLine()}`;
    }
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' &&
      this.spec.config.transport === 'stdio'
    ) {
      return `the command "${this.spec.config.command}" was not found`;
    }
    const exit =
      this.#transport instanceof ProcessGroupStdioTransport && /closed/i.test(message)
        ? `the process ${this.#transport.describeExit()}`
        : message;
    return exit;
  }

  /** How a stdio server was started, so a silent server's error says what it was given. */
  #launchLine(): string {
    const { config } = this.spec;
    if (config.transport !== 'stdio') return '';
    const line = describeLaunch({
      command: config.command,
      args: config.args,
      cwd: resolve(this.#cwd, config.cwd ?? '.'),
      env: serverEnvironment(config.env),
      own: config.env,
    });
    return `; ${line}`;
  }

  async #stop(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    if (!client) return;
    // A Streamable HTTP session is ended politely; the server may not care, so no waiting on it.
    if (transport instanceof StreamableHTTPClientTransport) {
      await raceAbort(transport.terminateSession(), AbortSignal.timeout(1_000)).catch(() => {});
    }
    await client.close().catch(() => {});
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** The promise, or a rejection as soon as the signal aborts: a hung handshake must not hold us. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
