// Tasks a stopped `warren a2a serve` was running, taken up by the next one: each runs again on
// the SDK's own event bus for its id (so `SubscribeToTask` finds it, `CancelTask` reaches it) and
// its events are saved to the task store as a request's would be.
import { type Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type ExecutionEventBusManager,
  ExecutionEventQueue,
  ResultManager,
  ServerCallContext,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { statusUpdate } from '../a2a/a2a-parts.js';
import type { ServedAgentExecutor } from './a2a-executor.js';

export interface Interrupted {
  task: Task;
  sessionId: string;
}

export function resumeInterrupted(
  tasks: readonly Interrupted[],
  deps: { store: TaskStore; buses: ExecutionEventBusManager; executor: ServedAgentExecutor },
): void {
  for (const { task, sessionId } of tasks) {
    const context = new ServerCallContext();
    const bus = deps.buses.createOrGetByTaskId(task.id, context);
    const queue = new ExecutionEventQueue(bus);
    const results = new ResultManager(deps.store, context);
    const saved = (async () => {
      for await (const event of queue.events()) await results.processEvent(event);
    })();
    const ids = { taskId: task.id, contextId: task.contextId };
    deps.executor
      .resume(task, sessionId, bus)
      .catch(() => {
        // The cause (a session file gone, a broken transcript) names the server's folders: the
        // caller is told only what to do.
        const why =
          'warren a2a serve restarted and could not go on with this task; send the message again to run it anew.';
        bus.publish(AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_FAILED, why)));
      })
      .finally(() => {
        bus.finished();
        deps.buses.cleanupByTaskId(task.id, context);
        void saved.catch(() => {});
      });
  }
}
