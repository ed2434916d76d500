// The ACP SDK's own client driving a real `warren acp` process over its stdin and stdout, as an
// editor would: every session update and permission question it gets is kept for the test.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  type ClientContext,
  client,
  type InitializeResponse,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { WARREN_BIN } from './cli-process.js';

export type PermissionAnswerer = (
  request: RequestPermissionRequest,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

export interface AcpWarren {
  agent: ClientContext;
  /** What it answered to `initialize`. */
  initialized: InitializeResponse;
  /** Every `session/update` so far, in order. */
  updates: SessionNotification[];
  /** Every permission question so far. */
  questions: RequestPermissionRequest[];
  stderr(): string;
  /** Ends the connection and waits for the process to exit; returns its exit code. */
  close(): Promise<number | null>;
}

/** Starts `warren acp <args>` and initializes it; `answer` decides its permission questions. */
export async function startAcpWarren(params: {
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  answer?: PermissionAnswerer;
}): Promise<AcpWarren> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [WARREN_BIN, 'acp', ...params.args],
    { cwd: params.cwd, env: { PATH: process.env.PATH, ...params.env } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const updates: SessionNotification[] = [];
  const questions: RequestPermissionRequest[] = [];
  const answer = params.answer ?? (() => ({ outcome: { outcome: 'cancelled' } }));
  const app = client({ name: 'warren-tests' })
    .onNotification(methods.client.session.update, ({ params: notification }) => {
      updates.push(notification);
    })
    .onRequest(methods.client.session.requestPermission, ({ params: request }) => {
      questions.push(request);
      return answer(request);
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const initialized = await connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: 'warren-tests', version: '0' },
  });
  return {
    agent: connection.agent,
    initialized,
    updates,
    questions,
    stderr: () => stderr,
    close: async () => {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The text of every `agent_message_chunk` so far, joined. */
export function agentText(updates: readonly SessionNotification[]): string {
  return updates
    .map(({ update }) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? update.content.text
        : '',
    )
    .join('');
}
