// The Workflow tool: the model hands over a script (or a saved workflow's name) and its args;
// the run is a background task (workflow-task.ts) whose items are background children, and its
// status, each failure's cause and the script's result come back as the task's notification
// (or as the call's answer, with `wait`). Only the main agent gets it: workflows never nest.
// What a call runs (the engine, its sandbox, the item runner) loads with the first call
// (workflow-call.ts): every main agent is offered the tool, few runs call it.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { z } from 'zod';
import type { Spawner } from '../agents/subagent-context.js';
import { lazy } from '../core/lazy.js';
import { defineTool, type Tool } from '../core/tool.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import type { WorkflowLimits } from './workflow-engine.js';
import type { WorkflowEvent } from './workflow-events.js';
import { type RecordPort, ReplicatedRecord, type WorkflowRecord } from './workflow-record.js';
import { isCsvRun, WorkflowStore } from './workflow-store.js';

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
  /**
   * Where runs are also kept, so another machine can resume them (`--executor restate`: the
   * `workflowRecord` object in Restate). Default: the task store alone.
   */
  record?: RecordPort;
}

export const workflowInputSchema = lazy(() =>
  z
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
    .strict(),
);

export type WorkflowToolInput = z.infer<ReturnType<typeof workflowInputSchema>>;

export function createWorkflowTool(spawner: Spawner, options: WorkflowToolOptions): Tool {
  let opened: WorkflowRecord | undefined;
  const store = () => {
    if (!opened) {
      const local = WorkflowStore.open(options.storePath);
      opened = options.record ? new ReplicatedRecord(local, options.record) : local;
    }
    return opened;
  };
  /** The bundled csv workflow writes its results file: asked like a write, not run as a read. */
  const writesCsv = (input: WorkflowToolInput) => {
    if (input.name === 'csv') return true;
    if (input.resumeFromRunId === undefined) return false;
    return isCsvRun(store().run(input.resumeFromRunId));
  };
  return defineTool({
    name: 'Workflow',
    description: DESCRIPTION,
    get inputSchema() {
      return workflowInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.Workflow,
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
      const { callWorkflow } = await import('./workflow-call.js');
      return callWorkflow(store, input, ctx, spawner, options);
    },
  });
}

const DESCRIPTION = `Runs a workflow: a JavaScript program that starts many agents and combines their results, in a sandbox (no files, network, clock or randomness of its own). Use it for fan-out work: one agent per file, per row, per item of a list. The call returns at once with the run's task id; the run goes on in the background, and when it ends its status, each failed item's cause and the script's \`result\` export arrive as a task notification.

The script begins with \`export const meta = { name, description }\`, then uses:
- \`await agent(prompt, { schema, label, agentType, model, effort, isolation: 'worktree', timeoutMs })\`: one agent; resolves to its final text, or with \`schema\` (an object JSON Schema) to a value of that shape; throws an AgentError (\`.status\`, \`.message\`) when it fails.
- \`await parallel(fn1, fn2, …)\` / \`await pipeline(items, (item, i) => agent(…))\`: many at once; a failed one is null in the list.
- \`phase(title)\`, \`log(...values)\`, the global \`args\`, \`budget.total\`, \`budget.spent()\`, \`budget.remaining()\` (tokens).
- \`export const result = …\`: what this call returns.
Limits: 16 agents at once, 1000 per run, 4096 items per parallel()/pipeline(). A quota, authentication or model error pauses the run (status paused) instead of failing every item; resume it with resumeFromRunId once fixed: completed items are not run again.`;
