// A Query whose run's code is still loading: query() returns it at once and loads the loop, the
// Agent tool, hooks and the rest with its first call (`import 'warren'` stays light); every call
// is handed to the run once it has started, and the few made before wait for it.
import type { AgentEvent, RunResult } from '../core/events.js';
import type { Query, QueryTasks } from './query-options.js';

type Step = IteratorResult<AgentEvent, RunResult>;

/**
 * `start` is the run's Query once its modules have loaded. A load that fails rejects the first
 * `next()`, as a run that cannot start does.
 */
export function loadingQuery(start: Promise<Query>, tasks: QueryTasks): Query {
  let run: Query | undefined;
  let interrupted = false;
  const started = start.then((query) => {
    run = query;
    if (interrupted) query.interrupt();
    return query;
  });
  // Seen by the first next(); without one, a failed load is not an unhandled rejection.
  started.catch(() => {});
  const query: Query = {
    next: (...value: [] | [unknown]): Promise<Step> =>
      run ? run.next(...value) : started.then((query) => query.next(...value)),
    return: (value: RunResult | PromiseLike<RunResult>): Promise<Step> =>
      run
        ? run.return(value)
        : started.then(
            (query) => query.return(value),
            async () => ({ done: true, value: await value }),
          ),
    throw: (error: unknown): Promise<Step> =>
      run ? run.throw(error) : started.then((query) => query.throw(error)),
    [Symbol.asyncIterator]() {
      return query;
    },
    // As a generator's own: `await using` ends the run.
    async [Symbol.asyncDispose]() {
      await query.return(undefined as unknown as RunResult);
    },
    interrupt() {
      if (run) run.interrupt();
      else interrupted = true;
    },
    // Before the run has started, no child is running to send.
    sendToBackground: (agentId?: string) => run?.sendToBackground(agentId) ?? [],
    tasks,
  };
  return query;
}
