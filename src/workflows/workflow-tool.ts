// The Workflow tool: the model hands over a script (or a saved workflow's name) and its args;
// the run is a background task (workflow-task.ts) whose items are background children, and its
// status, each failure's cause and the script's result come back as the task's notification
// (or as the call's answer, with `wait`). Only the main agent gets it: workflows never nest.

import { readFile } from 'node:fs/promises';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { z } from 'zod';
import type { Spawner } from '../agents/subagent-context.js';
import { defineTool, type SpawnToolContext, type Tool, toolError } from '../core/tool.js';
import { BackgroundTasks } from '../tasks/background-tasks.js';
import { resolveAllowedPath } from '../tools/allowed-path.js';
import { type CsvRunArgs, csvRunArgs, writeCsvResults } from './bundled/csv-run.js';
import { findWorkflow } from './saved-workflows.js';
import { subagentItemRunner } from './subagent-item-runner.js';
import { runWorkflow, type WorkflowLimits, type WorkflowRunResult } from './workflow-engine.js';
import type { WorkflowEvent } from './workflow-events.js';
import { readMeta } from './workflow-meta.js';
import { type StoredRun, WorkflowStore } from './workflow-store.js';
import { newRunId, workflowSummary } from './workflow-summary.js';
import { type RunInTask, WorkflowTaskExecutor } from './workflow-task.js';

export interface WorkflowToolOptions {
  /** The session's task store file (tasks.db), or `:memory:`. */
  storePath: string;
  /** The model of items that name none; default the main agent's. */
  model?: LanguageModelV4;
  limits?: Partial<WorkflowLimits>;
  /** Every `workflow_*` event, as it happens. */
  onEvent?: (event: WorkflowEvent) => void;
  /**
   * The call waits for the run's end and answers with its summary (`warren workflow run`).
   * Default: the run is a background task; the call returns its task id at once and the summary
   * arrives as a task notification.
   */
  wait?: boolean;
}

const inputSchema = z
  .object({
    script: z
      .string()
      .min(1)
      .optional()
      .describe(
        'The workflow script: it must begin with export const meta = { name, description }.',
      ),
    scriptPath: z
      .string()
      .min(1)
      .optional()
      .describe('A workflow script file inside your allowed directories, instead of script.'),
    name: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A saved workflow (.warren/workflows/, .claude/workflows/) or a bundled one (csv).',
      ),
    args: z.unknown().optional().describe('The global `args` of the script (JSON).'),
    resumeFromRunId: z
      .string()
      .regex(/^wf_[0-9a-f]{8}$/)
      .optional()
      .describe(
        'Resume this run: completed agent() calls return their recorded results; only changed, failed and unfinished ones run.',
      ),
    budget: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("The run's budget in tokens: it pauses when spent (resume with a larger one)."),
  })
  .strict();

export function createWorkflowTool(spawner: Spawner, options: WorkflowToolOptions): Tool {
  let opened: WorkflowStore | undefined;
  const store = () => {
    opened ??= WorkflowStore.open(options.storePath);
    return opened;
  };
  /** The bundled csv workflow writes its results file: asked like a write, not run as a read. */
  const writesCsv = (input: z.infer<typeof inputSchema>) => {
    if (input.name === 'csv') return true;
    if (input.resumeFromRunId === undefined) return false;
    return isCsvRun(store().run(input.resumeFromRunId));
  };
  return defineTool({
    name: 'Workflow',
    description: DESCRIPTION,
    inputSchema,
    spawnsAgents: true,
    // Starting agents changes nothing itself (each of their calls is checked); the csv
    // workflow's results file is a write.
    isReadOnly: (input) => !writesCsv(input),
    // Rules name the saved workflow: Workflow(csv), Workflow(review); an inline script is "script".
    permissionSubject: (input) =>
      input.name ?? (input.resumeFromRunId ? `resume ${input.resumeFromRunId}` : 'script'),
    isConcurrencySafe: false,
    timeoutMs: Infinity,
    async call(input, ctx) {
      try {
        const runId = await prepareRun(store(), input, ctx);
        const runner = subagentItemRunner(spawner, ctx, { model: options.model });
        const run: RunInTask = async (signal, onEvent) => {
          const result = await runWorkflow({
            store: store(),
            runId,
            runner,
            limits: options.limits,
            onEvent,
            signal,
            resumed: input.resumeFromRunId !== undefined,
          });
          return { result, summary: workflowSummary(result, finishCsv(store(), result)) };
        };
        if (!options.wait) return startInBackground(spawner, ctx, store(), runId, run, options);
        const { agentId, parentId, depth } = ctx.agent;
        const { result, summary } = await run(ctx.signal, (event) => {
          options.onEvent?.(event);
          ctx.emit({ agentId, parentId, depth, ...event });
        });
        return result.status === 'failed' ? toolError(summary) : summary;
      } catch (error) {
        // A script, name or args that cannot run: the model reads why and can fix its call.
        return toolError(error instanceof Error ? error.message : String(error));
      }
    },
  });
}

/** The run as a task of its own: its id at once, its summary later as a task notification. */
function startInBackground(
  spawner: Spawner,
  ctx: SpawnToolContext,
  store: WorkflowStore,
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
    new WorkflowTaskExecutor(run, { agentId, parentId, depth }, options.onEvent),
    { runId },
    {
      kind: 'local_workflow',
      description: `workflow ${store.run(runId)?.name ?? runId}`,
      owner: { agentId, parentId, depth },
      spec: { runId },
    },
  );
  store.updateRun(runId, { taskId: record.taskId });
  const started = { task_id: record.taskId, run_id: runId, status: record.status };
  return `${JSON.stringify(started)}\n${BACKGROUND_NOTE}`;
}

const BACKGROUND_NOTE =
  'The workflow runs in the background: its summary (status, failed items, result) arrives as a task notification. TaskOutput shows how far it got; TaskStop pauses it (resume with resumeFromRunId).';

/** The run to go on with: a new one from a script or a name, or `resumeFromRunId` (its script replaced when one is given). */
async function prepareRun(
  store: WorkflowStore,
  input: z.infer<typeof inputSchema>,
  ctx: SpawnToolContext,
): Promise<string> {
  const given = [input.script, input.scriptPath, input.name].filter((value) => value !== undefined);
  if (input.resumeFromRunId !== undefined) {
    const run = store.run(input.resumeFromRunId);
    if (!run) throw new Error(`no workflow run ${input.resumeFromRunId} in this session`);
    if (given.length > 0) {
      const { source, filename } = await scriptOf(input, ctx);
      await readMeta(source, filename);
      store.updateRun(run.runId, { source, filename });
    }
    if (input.budget !== undefined) store.updateRun(run.runId, { budgetTokens: input.budget });
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
  store.createRun({
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

function isCsvRun(run: StoredRun | undefined): boolean {
  return run?.name === 'csv' && run.filename.startsWith('(bundled)');
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
function finishCsv(store: WorkflowStore, result: WorkflowRunResult): string | undefined {
  const run = store.run(result.runId);
  if (!run || !isCsvRun(run)) return undefined;
  return writeCsvResults(JSON.parse(run.args) as CsvRunArgs, result, store.items(result.runId));
}

const DESCRIPTION = `Runs a workflow: a JavaScript program that starts many agents and combines their results, in a sandbox (no files, network, clock or randomness of its own). Use it for fan-out work: one agent per file, per row, per item of a list. The call returns at once with the run's task id; the run goes on in the background, and when it ends its status, each failed item's cause and the script's \`result\` export arrive as a task notification.

The script begins with \`export const meta = { name, description }\`, then uses:
- \`await agent(prompt, { schema, label, agentType, model, effort, isolation: 'worktree', timeoutMs })\`: one agent; resolves to its final text, or with \`schema\` (an object JSON Schema) to a value of that shape; throws an AgentError (\`.status\`, \`.message\`) when it fails.
- \`await parallel(fn1, fn2, …)\` / \`await pipeline(items, (item, i) => agent(…))\`: many at once; a failed one is null in the list.
- \`phase(title)\`, \`log(...values)\`, the global \`args\`, \`budget.total\`, \`budget.spent()\`, \`budget.remaining()\` (tokens).
- \`export const result = …\`: what this call returns.
Limits: 16 agents at once, 1000 per run, 4096 items per parallel()/pipeline(). A quota, authentication or model error pauses the run (status paused) instead of failing every item; resume it with resumeFromRunId once fixed: completed items are not run again.`;
