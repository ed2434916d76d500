// Where a run's random ids come from: fresh ones, or in a replay the ones the recorded run had,
// so the replayed run asks its model exactly what the recorded one asked (an Agent tool's
// result names the child's task and agent ids) and reports the same ids.
import type { TaskMeta } from './tasks.js';

export interface RunIds {
  /** The id of a new agent at `path` (`main`, `main/Agent#1/explore`); `fresh` makes a new one. */
  agentId(path: string, fresh: () => string): string;
  /** The id of a new task, by `taskKey` of what it is; `fresh` makes a new one. */
  taskId(key: string, fresh: () => string): string;
}

/** Every id new: what a run without a recording to follow uses. */
export const FRESH_IDS: RunIds = {
  agentId: (_path, fresh) => fresh(),
  taskId: (_key, fresh) => fresh(),
};

/**
 * What names a task the same way in a recorded run and its replay: its agent's id for an agent
 * task (itself the recorded one in a replay), else its owner, kind and description.
 */
export function taskKey(
  meta: Pick<TaskMeta, 'kind' | 'agentId' | 'description'> & {
    ownerId: string;
  },
): string {
  return meta.agentId
    ? `agent\0${meta.agentId}`
    : `${meta.ownerId}\0${meta.kind}\0${meta.description}`;
}
