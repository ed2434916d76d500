// `warren acp`: warren as an ACP agent on stdin and stdout (newline-delimited JSON-RPC), the
// way Zed and other ACP editors run an agent. stdout carries only the protocol; warren's own
// messages go to stderr. Each session is an AcpSession; all end when the client goes away.

import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import { listSessions } from '../../acp/session-list.js';
import { ConfigError } from '../../core/config-error.js';
import { mediaAccepted } from '../../model/model-media.js';
import { defaultSessionDir } from '../../session/session-paths.js';
import { packageVersion } from '../package-version.js';
import type { AcpArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { AcpSession, type OpenSession } from './acp-session.js';

export async function runAcpCommand(args: AcpArgs, io: CliIo): Promise<number> {
  const quiet: CliIo = { ...io, stdout: io.stderr };
  const media = mediaAccepted(args.model);
  const sessions = new Map<string, AcpSession>();
  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.invalidParams(undefined, `no session ${sessionId}`);
    return session;
  };
  const open = async (params: Omit<OpenSession, 'args' | 'io' | 'media'>): Promise<AcpSession> => {
    try {
      const session = await AcpSession.open({ ...params, args, io: quiet, media });
      sessions.set(session.sessionId, session);
      return session;
    } catch (error) {
      // Bad input (a flag, a settings file, a server the client sent): one line, no stack.
      if (ConfigError.isInstance(error)) throw RequestError.invalidParams(undefined, error.message);
      throw error;
    }
  };

  const app = agent({ name: 'warren' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: {} },
        promptCapabilities: { image: media.image, audio: media.audio, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      agentInfo: { name: 'warren', title: 'warren', version: packageVersion() },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const session = await open({ client, cwd: params.cwd, mcpServers: params.mcpServers });
      // Once the client knows the session: it is named in the response.
      setTimeout(() => session.announceCommands(), 0);
      return { sessionId: session.sessionId, modes: session.modes };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const loaded = sessions.get(params.sessionId);
      if (loaded) await loaded.close();
      const session = await open({
        client,
        cwd: params.cwd,
        mcpServers: params.mcpServers,
        load: params.sessionId,
      });
      await session.replayHistory();
      setTimeout(() => session.announceCommands(), 0);
      return { modes: session.modes };
    })
    .onRequest(methods.agent.session.prompt, ({ params }) => {
      // A client's W3C trace context (ACP's `_meta.traceparent`): the prompt's spans continue it.
      const traceparent = params._meta?.traceparent;
      return sessionOf(params.sessionId).prompt(
        params.prompt,
        typeof traceparent === 'string' ? traceparent : undefined,
      );
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      const listed = listSessions(resolve(args.sessionDir ?? defaultSessionDir()), params);
      if ('refused' in listed) throw RequestError.invalidParams(undefined, listed.refused);
      return listed;
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      sessionOf(params.sessionId).setMode(params.modeId);
      return {};
    });

  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const stopListening = io.onInterrupt(() => connection.close());
  try {
    await connection.closed;
  } finally {
    stopListening();
    await Promise.all([...sessions.values()].map((session) => session.close()));
  }
  return 0;
}
