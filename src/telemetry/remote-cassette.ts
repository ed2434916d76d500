// Remote children on a cassette: while recording, each child's result is written down as its
// executor gave it; in a replay an executor answers from those results and reaches no worker,
// so a replayed run with remote children needs no restate-server.
import type { RunResult } from '../core/events.js';
import type { RemoteExecutor } from '../core/remote-executor.js';
import type { CassetteRecorder } from './cassette.js';
import { type Replay, ReplayMismatchError } from './replay-model.js';

/** The executor, with every child's result recorded as it arrives. */
export function recordingExecutor(
  executor: RemoteExecutor,
  recorder: CassetteRecorder,
): RemoteExecutor {
  return {
    name: executor.name,
    submit: (spec, signal) => executor.submit(spec, signal),
    async result(agentId, signal) {
      const result = await executor.result(agentId, signal);
      recorder.recordRemoteResult(result);
      return result;
    },
    progress: (agentId, signal) => executor.progress(agentId, signal),
    cancel: (agentId) => executor.cancel(agentId),
    send: (agentId, text) => executor.send(agentId, text),
    inbox: (key) => executor.inbox(key),
    acknowledge: (key, taskId) => executor.acknowledge(key, taskId),
  };
}

/**
 * An executor whose children end with their recorded results: at once, or for a background
 * child when its notification is due (delivery-gate.ts).
 */
export function replayedExecutor(replay: Replay): RemoteExecutor {
  const { cassette } = replay;
  const recorded = (agentId: string, path: string): RunResult => {
    const result = cassette.remoteResults.get(agentId);
    if (result) return result;
    throw new ReplayMismatchError(
      path,
      undefined,
      `no recorded result for remote child ${agentId}`,
    );
  };
  return {
    name: 'replay',
    async submit(spec) {
      recorded(spec.agentId, spec.agentPath);
    },
    async result(agentId, signal) {
      const result = recorded(agentId, agentId);
      await replay.gate.held(agentId, signal);
      return result;
    },
    progress: async () => undefined,
    cancel: async () => {},
    // A replayed child has ended before anyone could write to it.
    send: async () => false,
    inbox: async () => [],
    acknowledge: async () => {},
  };
}
