// A session's background tasks: the task store in its session folder and the manager over it,
// opened together and closed together (print mode and the terminal UI share them).
import type { AgentEvent } from '../core/events.js';
import type { RunIds } from '../core/run-ids.js';
import { taskStorePath } from '../session/session-paths.js';
import { TaskManager } from './task-manager.js';
import { TaskStore } from './task-store.js';

export interface OpenTasks {
  sessionId: string;
  /** Every task stops when it aborts. */
  signal: AbortSignal;
  /** Where the manager's own events (`task_*`) go. */
  onEvent: (event: AgentEvent) => void;
  /** Where task ids come from (a replay's are the recorded ones). */
  runIds?: RunIds;
}

export interface SessionTasks {
  manager: TaskManager;
  /** Stops every task still running (waiting for them a while) and closes the store. */
  close(): Promise<void>;
}

export function openSessionTasks(
  sessionDir: string,
  { sessionId, signal, onEvent, runIds }: OpenTasks,
): SessionTasks {
  const store = TaskStore.open(taskStorePath(sessionDir, sessionId));
  const manager = new TaskManager({ store, signal, onEvent, runIds });
  return {
    manager,
    close: async () => {
      await manager.shutdown();
      store.close();
    },
  };
}
