// `warren/tasks`: background tasks a host keeps across runs — the manager, its SQLite store and
// the records they keep.

export type {
  TaskKind,
  TaskMeta,
  TaskOutcome,
  TaskProgress,
  TaskRecord,
  TaskStatus,
} from './core/tasks.js';
export {
  TaskManager,
  type TaskManagerOptions,
  type WaitOptions,
} from './tasks/task-manager.js';
export { TaskStore } from './tasks/task-store.js';
