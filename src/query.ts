// query(): the library's way into a run. It turns the caller's options into a run plan once
// (run/run-defaults.ts applies every default, run/plan-run.ts builds the run's parts) and starts
// it: the agent loop with sub-agents, background tasks, MCP, hooks and the project's context.
// That code loads with the first query() (run/loading-query.ts), not with `import 'warren'`.
import type { RunResult } from './core/events.js';
import { lazy } from './core/lazy.js';
import { loadingQuery } from './run/loading-query.js';
import { newMainId } from './run/main-id.js';
import type { Query, QueryOptions, QueryParams, StructuredOutputOf } from './run/query-options.js';
import { TaskManager } from './tasks/task-manager.js';

export type {
  Query,
  QueryOptions,
  QueryParams,
  QueryTasks,
  StructuredOutputOf,
} from './run/query-options.js';

/**
 * Runs an agent, and the sub-agents it starts, to the end. Yields every event of the tree as
 * it happens (children's events carry their own `agentId`, `parentId` and `depth`, background
 * ones included); returns the main agent's result. When the main agent ends its turn while
 * background tasks it started still run, it waits for them and goes on with their
 * notifications, unless `waitForBackground: false`. Tools default to the built-ins: Read,
 * Write, Edit, Glob, Grep, Bash, TodoWrite, WebFetch. Permissions default to the `default` mode
 * with no way to ask: read-only calls run, others are denied with a message; pass `permissions`
 * (with `canUseTool`, or another mode) to allow more. `hooks` run for every agent of the tree
 * (docs/hooks.md); with an `outputSchema` (or an `agent` whose definition has one) the result's
 * `structuredOutput` is typed by a zod schema. Unusable options (a broken definition) make the
 * first `next()` reject.
 */
export function query<const Options extends QueryOptions>(params: {
  prompt: string;
  options: Options;
}): Query<RunResult & { structuredOutput?: StructuredOutputOf<Options> }>;
export function query({ prompt, options }: QueryParams): Query {
  const agentId = options.agentId ?? newMainId(options.runIds);
  const tasks =
    options.tasks ??
    new TaskManager({
      signal: options.signal,
      onEvent: options.onEvent,
      resultMaxChars: options.resultMaxChars,
      runIds: options.runIds,
    });
  const input = { ...options, agentId, tasks };
  return loadingQuery(
    loadRun().then(({ startQuery }) => startQuery(prompt, input)),
    tasks,
  );
}

/**
 * The run's code, loaded by the first query() and kept: an `import()` of a module already loaded
 * still goes through the module loader, some 60 µs of every later query().
 */
const loadRun = lazy(() => import('./run/start-run.js'));
