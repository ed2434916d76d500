// The AgentHost a protocol server runs on: one run setup (definitions, settings, trust, model)
// for the server's life, and a session of its own, with its transcript and tasks, for each call.

import { findDefinition } from '../../agents/subagent-runtime.js';
import { ConfigError } from '../../core/config-error.js';
import type { Message } from '../../core/messages.js';
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import { checkAgentName } from '../../definitions/agent-name.js';
import { createPermissionPolicy } from '../../permissions/create-permission-policy.js';
import { newMainId } from '../../run/main-id.js';
import { runQuery } from '../../run/start-run.js';
import type { AgentHost, ServedRun } from '../../serve/agent-host.js';
import { EventFeed } from '../../session/event-feed.js';
import { prepareSessionDir } from '../../session/session-dir.js';
import { newSessionId } from '../../session/session-paths.js';
import { TranscriptWriter } from '../../session/transcript-writer.js';
import type { ServeArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { type RunSetup, setUpRun } from '../run/run-setup.js';

export async function openServeHost(args: ServeArgs, io: CliIo): Promise<AgentHost> {
  const setup = await setUpRun(args, io);
  const definitions = servedDefinitions(setup, args.served);
  return {
    definitions,
    sessionDir: setup.sessionDir,
    run: (run) => runServed(setup, run, io),
    close: () => setup.close(),
  };
}

/** The definitions `--agent a,b` names, in that order; every usable one without it. */
function servedDefinitions(setup: RunSetup, names: string[] | undefined): AgentDefinition[] {
  const all = setup.agents.definitions;
  // A remote (A2A) agent runs elsewhere: publishing it here would only relay.
  const local = [...all.values()].filter((definition) => !definition.remote);
  if (!names) return local;
  return names.map((written) => {
    const definition = all.get(checkAgentName(written).name ?? written);
    if (!definition || definition.remote) {
      throw new ConfigError(
        `--agent ${written}`,
        definition ? 'is a remote (A2A) agent, which runs only as a sub-agent' : 'no such agent',
        `use one of: ${local.map((candidate) => candidate.name).join(', ')}`,
      );
    }
    return definition;
  });
}

async function runServed(setup: RunSetup, run: ServedRun, io: CliIo) {
  // Each call is a session of its own: its transcript, its task store, `warren usage <id>`.
  const sessionId = run.resume ?? newSessionId();
  prepareSessionDir({
    sessionDir: setup.sessionDir,
    sessionId,
    where: `the session folder ${setup.sessionDir}`,
  });
  const messages = run.resume ? await resumedMessages(setup.sessionDir, run.resume) : [];
  run.onSession?.(sessionId);
  const mainAgentId = newMainId();
  const feed = new EventFeed({
    transcript: new TranscriptWriter({ sessionDir: setup.sessionDir, sessionId, mainAgentId }),
  });
  feed.subscribe((event) => {
    setup.observe(event);
    run.onEvent(event);
  });
  const tasks = setup.openTasks({ sessionId, signal: run.signal, onEvent: feed.record });
  const root = setup.permissions;
  // The caller answers this run's questions; rules and mode stay the server's.
  const permissions = run.canUseTool
    ? createPermissionPolicy({
        mode: root.mode,
        allow: root.allow,
        deny: root.deny,
        ask: root.ask,
        canUseTool: run.canUseTool,
      })
    : root;
  try {
    const input = setup.runInput({
      sessionId,
      agentId: mainAgentId,
      signal: run.signal,
      messages,
      transcript: feed.transcript,
      tasks: tasks.manager,
      onEvent: feed.record,
      mainDefinition: servedDefinition(setup, run.agent),
      limits: run.budget,
      // What the stopped server's run had started in the background starts again.
      ...(run.resume
        ? { resumeTasks: { warn: (warning: string) => io.stderr(`warren: warning: ${warning}\n`) } }
        : {}),
    });
    const result = await feed.drain(
      runQuery(run.prompt, {
        ...input,
        permissions,
        ...(run.traceparent ? { traceparent: run.traceparent } : {}),
      }),
    );
    return { ...result, sessionId };
  } finally {
    await tasks.close();
    feed.close();
  }
}

/** The conversation of a session a stopped server left, as `--resume` reads it. */
async function resumedMessages(sessionDir: string, sessionId: string): Promise<Message[]> {
  const { loadSession } = await import('../../session/read-transcript.js');
  return loadSession({ sessionDir, sessionId }).messages;
}

/** The definition a call names, found once for its run. */
function servedDefinition(setup: RunSetup, name: string): AgentDefinition {
  const definitions = setup.agents.definitions;
  const definition = findDefinition(definitions, name);
  if (!definition) {
    const names = [...definitions.keys()].join(', ');
    throw new ConfigError(`--agent ${name}`, 'no such agent', `use one of: ${names}`);
  }
  return definition;
}
