// A call of the Workflow tool (workflow-tool.ts), loaded with the first: the run made or resumed
// in the store and started as a background task of its own (or waited for, with `wait`), its
// items run as sub-agents by the engine in its sandbox, the bundled csv workflow's results file
// written, and the summary the model reads.

import { readFile } from 'node:fs/promises';
import type { Spawner } from '../agents/subagent-context.js';
import { messageOf } from '../core/error-message.js';
import type { AgentEvent } from '../core/events.js';
import { type SpawnToolContext, type ToolOutput, toolError } from '../core/tool.js';
import { BackgroundTasks } from '../tasks/background-tasks.js';
import { resolveAllowedPath } from '../tools/allowed-path.js';
import { type CsvRunArgs, csvRunArgs, writeCsvResults } from './bundled/csv-run.js';
import { findWorkflow } from './saved-workflows.js';
import { subagentItemRunner } from './subagent-item-runner.js';
import { runWorkflow, type WorkflowRunResult } from './workflow-engine.js';
import { readMeta } from './workflow-meta.js';
import type { WorkflowRecord } from './workflow-record.js';
import { isCsvRun } from './workflow-store.js';
import { newRunId, workflowSummary } from './workflow-summary.js';
import { type RunInTask, WorkflowTaskExecutor } from './workflow-task.js';
import type { WorkflowToolInput, WorkflowToolOptions } from './workflow-tool.js';

/** `openStore` opens the session's store on first use; failing to is an error the model reads. */
export async function callWorkflow(
  openStore: () => WorkflowRecord,
  input: WorkflowToolInput,
  ctx: SpawnToolContext,
  spawner: Spawner,
  options: WorkflowToolOptions,
): Promise<ToolOutput> {
  try {
    const store = openStore();
    const runId = await prepareRun(store, input, ctx);
    const runner = subagentItemRunner(spawner, ctx, { model: options.model });
    const run: RunInTask = async (signal, onEvent) => {
      const result = await runWorkflow({
        store,
        runId,
        runner,
        limits: options.limits,
        onEvent,
        signal,
        resumed: input.resumeFromRunId !== undefined,
      });
      return { result, summary: workflowSummary(result, finishCsv(store, result)) };
    };
    if (!options.wait) return startInBackground(spawner, ctx, store, runId, run, options);
    // Waiting (`warren workflow run`): the events go into the caller's stream as the call's.
    const { agentId, parentId, depth } = ctx.agent;
    // Made outside any loop: recorded (the run's `onEvent`) as they are made, as the loop's are.
    const record = ctx.run.inherited.onEvent;
    const { result, summary } = await run(ctx.signal, (event) => {
      options.onEvent?.(event);
      const made: AgentEvent = { agentId, parentId, depth, ...event };
      record?.(made);
      ctx.emit(made);
    });
    return result.status === 'failed' ? toolError(summary) : summary;
  } catch (error) {
    // A script, name or args that cannot run: the model reads why and can fix its call.
    return toolError(messageOf(error));
  }
}

/** The run as a task of its own: its id at once, its summary later as a task notification. */
function startInBackground(
  spawner: Spawner,
  ctx: SpawnToolContext,
  store: WorkflowRecord,
  runId: string,
  run: RunInTask,
  options: WorkflowToolOptions,
): string {
  const tasks = spawner.runtime.background;
  if (!(tasks instanceof BackgroundTasks)) {
    throw new Error('workflows need a run with background tasks (a task manager)');
  }
  const { agentId, parentId, depth } = ctx.agent;
  const record = tasks.manager.start(
    new WorkflowTaskExecutor(
      run,
      { agentId, parentId, depth },
      options.onEvent,
      ctx.run.inherited.onEvent,
    ),
    { runId },
    {
      kind: 'local_workflow',
      description: `workflow ${store.run(runId)?.name ?? runId}`,
      owner: { agentId, parentId, depth },
      spec: { runId },
    },
  );
  void Promise.resolve(store.updateRun(runId, { taskId: record.taskId })).catch(() => undefined);
  const started = { task_id: record.taskId, run_id: runId, status: record.status };
  return `${JSON.stringify(started)}\n${BACKGROUND_NOTE}`;
}

const BACKGROUND_NOTE =
  'The workflow runs in the background: its summary (status, failed items, result) arrives as a task notification. TaskOutput shows how far it got; TaskStop pauses it (resume with resumeFromRunId).';

/** The run to go on with: a new one from a script or a name, or `resumeFromRunId` (its script replaced when one is given). */
async function prepareRun(
  store: WorkflowRecord,
  input: WorkflowToolInput,
  ctx: SpawnToolContext,
): Promise<string> {
  const given = [input.script, input.scriptPath, input.name].filter((value) => value !== undefined);
  if (input.resumeFromRunId !== undefined) {
    // A run kept in Restate is read from there first: another machine's, or one it went on with.
    const run = store.fetchRun
      ? await store.fetchRun(input.resumeFromRunId)
      : store.run(input.resumeFromRunId);
    if (!run) throw new Error(`no workflow run ${input.resumeFromRunId} in this session`);
    if (given.length > 0) {
      const { source, filename } = await scriptOf(input, ctx);
      await readMeta(source, filename);
      await store.updateRun(run.runId, { source, filename });
    }
    if (input.budget !== undefined) {
      await store.updateRun(run.runId, { budgetTokens: input.budget });
    }
    return run.runId;
  }
  if (given.length !== 1) {
    throw new Error('give exactly one of script, scriptPath and name (or resumeFromRunId)');
  }
  const saved = input.name === undefined ? undefined : await findWorkflow(ctx.cwd, input.name);
  const { source, filename } = saved ?? (await scriptOf(input, ctx));
  const meta = saved ?? (await readMeta(source, filename));
  const args =
    saved?.origin === 'bundled' && saved.name === 'csv'
      ? await csvRunArgs(input.args, ctx)
      : (input.args ?? {});
  const runId = newRunId();
  await store.createRun({
    runId,
    taskId: null,
    name: meta.name,
    description: meta.description,
    filename,
    source,
    args: JSON.stringify(args),
    status: 'running',
    budgetTokens: input.budget ?? null,
  });
  return runId;
}

/** The script given inline (`script`) or as a file inside the caller's allowed directories. */
async function scriptOf(
  input: { script?: string; scriptPath?: string },
  ctx: SpawnToolContext,
): Promise<{ source: string; filename: string }> {
  if (input.scriptPath === undefined) return { source: input.script ?? '', filename: 'script' };
  const resolved = await resolveAllowedPath(input.scriptPath, ctx);
  if (!resolved.ok) throw new Error(`scriptPath: ${resolved.message}`);
  try {
    return { source: await readFile(resolved.path, 'utf8'), filename: input.scriptPath };
  } catch (error) {
    throw new Error(
      `scriptPath: ${input.scriptPath} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** The bundled csv workflow's results CSV, written after every pass (a resume rewrites it). */
function finishCsv(store: WorkflowRecord, result: WorkflowRunResult): string | undefined {
  const run = store.run(result.runId);
  if (!run || !isCsvRun(run)) return undefined;
  return writeCsvResults(JSON.parse(run.args) as CsvRunArgs, result, store.items(result.runId));
}
