// One run of the main agent hosted by a command (print mode, `warren workflow`): the session's
// background tasks opened around it, Ctrl+C wired to its signal, its events through the feed,
// and everything closed however it ends.
import type { RunResult } from '../../core/events.js';
import type { Query } from '../../run/query-options.js';
import type { RunInput } from '../../run/run-plan.js';
import type { EventFeed } from '../../session/event-feed.js';
import type { QueryRun, RunSetup } from '../run/run-setup.js';
import type { CliIo } from './print-mode.js';

export async function hostedRun(params: {
  setup: RunSetup;
  io: CliIo;
  feed: EventFeed;
  mainAgentId: string;
  /** A resumed session restarts the tasks it was running. */
  resume: boolean;
  /** What this host adds to the run (stream-json's workflow events). */
  extra?: Pick<QueryRun, 'onWorkflowEvent'>;
  start: (input: RunInput) => Query | Promise<Query>;
}): Promise<RunResult> {
  const { setup, io, feed } = params;
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  const tasks = setup.openTasks({
    sessionId: setup.sessionId,
    signal: controller.signal,
    onEvent: feed.record,
  });
  try {
    const input = setup.runInput({
      sessionId: setup.sessionId,
      agentId: params.mainAgentId,
      signal: controller.signal,
      messages: setup.history,
      transcript: feed.transcript,
      tasks: tasks.manager,
      onEvent: feed.record,
      ...params.extra,
      ...(params.resume
        ? { resumeTasks: { warn: (warning) => io.stderr(`warren: warning: ${warning}\n`) } }
        : {}),
    });
    return await feed.drain(await params.start(input));
  } finally {
    stopListening();
    // The main agent waits for its background work; what is left (it ended early) stops now.
    await tasks.close();
    feed.close();
    await setup.close();
  }
}
