// The stdio transport of warren's MCP clients: the SDK's message framing over a server process
// that runs in its own process group, so closing it stops the server and all it started, after
// a grace period: end of input, then SIGTERM, then SIGKILL.
import { type ChildProcess, spawn } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { releaseGroup, signalGroup, trackGroup } from '../core/process-group.js';

/** After input ends, how long a server may take to exit by itself (MCP's stdio shutdown). */
const EXIT_GRACE_MS = 500;
/** Between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** Enough of a server's stderr to say why it died. */
const STDERR_TAIL_CHARS = 2_000;

export interface StdioServerParams {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #params: StdioServerParams;
  readonly #readBuffer = new ReadBuffer();
  #process: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #stderr = '';

  constructor(params: StdioServerParams) {
    this.#params = params;
  }

  /** The server's process id (and group id) once started. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** How the process ended and the last of what it wrote to stderr, for messages. */
  describeExit(): string {
    const exit = this.#exit;
    const how = !exit
      ? 'is not running'
      : exit.signal
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code}`;
    const said = this.#stderr.trim().split('\n').slice(-3).join(' | ').slice(-400);
    return said ? `${how}; its last output: ${said}` : how;
  }

  start(): Promise<void> {
    if (this.#process) throw new Error('the stdio transport is already started');
    const { command, args, env, cwd } = this.#params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      this.#process = child;
      this.#exited = new Promise((done) => child.once('exit', () => done()));
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
      });
      child.once('error', (error) => {
        this.#exit ??= { code: null, signal: null };
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('close', () => {
        this.#readBuffer.clear();
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk));
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL_CHARS);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin?.writable) return Promise.reject(new Error('the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server and everything in its process group; resolves when the server is gone. */
  async close(): Promise<void> {
    const child = this.#process;
    const pid = child?.pid;
    if (!child || pid === undefined || !this.#exited) return;
    child.stdin?.end();
    if (this.#exit === undefined && !(await within(this.#exited, EXIT_GRACE_MS))) {
      signalGroup(pid, 'SIGTERM');
      if (!(await within(this.#exited, KILL_GRACE_MS))) signalGroup(pid, 'SIGKILL');
      await this.#exited;
    }
    // The server is gone; what it started may not be. They get the same grace, then SIGKILL.
    if (signalGroup(pid, 'SIGTERM')) {
      setTimeout(() => {
        signalGroup(pid, 'SIGKILL');
        releaseGroup(pid);
      }, KILL_GRACE_MS).unref();
    } else {
      releaseGroup(pid);
    }
  }

  #receive(chunk: Buffer): void {
    try {
      this.#readBuffer.append(chunk);
    } catch (error) {
      // More than the buffer holds without a line break: not a server speaking MCP. Stop it.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a server logging to stdout): reported, and skipped.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
