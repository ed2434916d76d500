// Bash with `run_in_background`: the same tool, except that such a call starts a `local_bash`
// task on the run's task manager and returns its id at once. Without the flag it is plain Bash.
// Starting the task (background-bash-launch.ts) loads with the first background command.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type PlainTool, type Tool } from '../core/tool.js';
import { BASH_USAGE, bashInputSchema, bashTool, MAX_TIMEOUT_MS } from '../tools/bash.js';
import { TOOL_JSON_SCHEMAS } from '../tools/tool-json-schemas.js';
import type { BackgroundTasks } from './background-tasks.js';

export const backgroundBashInputSchema = lazy(() =>
  bashInputSchema().extend({
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        'Run it in the background and return a task id at once; you are notified when it ends.',
      ),
  }),
);

/** Whether `tool` is the built-in Bash, or a wrapper of it that keeps its schema (replay). */
export function isBuiltinBash(tool: Tool): tool is PlainTool {
  return (
    tool === bashTool ||
    (tool.name === 'Bash' &&
      !tool.spawnsAgents &&
      tool.inputSchema === bashTool.inputSchema &&
      tool.description === bashTool.description)
  );
}

/** `base` (the built-in Bash, or a wrapper of it) with `run_in_background` added. */
export function backgroundBashTool(tasks: BackgroundTasks, base: PlainTool = bashTool): Tool {
  return defineTool({
    name: 'Bash',
    description: [
      'Runs a bash command and returns its output.',
      '',
      ...BASH_USAGE,
      `- With run_in_background the command runs while you go on (a build, a test suite, a server) and you get a task id; its output goes to a file, you are notified when it ends, TaskOutput reads it and TaskStop stops it with every process it started. It is stopped after its timeout (default and at most ${MAX_TIMEOUT_MS / 1000} s) and when the run ends.`,
    ].join('\n'),
    get inputSchema() {
      return backgroundBashInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.BackgroundBash,
    isReadOnly: (input, scope) => isReadOnly(input, scope),
    notReadOnlyReason: (input, scope) => base.notReadOnlyReason?.(input, scope),
    isConcurrencySafe: false,
    timeoutMs: bashTool.timeoutMs,
    permissionSubject: (input) => input.command,
    async call(input, ctx) {
      const { run_in_background: background, ...command } = input;
      if (!background)
        return base.spawnsAgents ? bashTool.call(command, ctx) : base.call(command, ctx);
      // Starting the task loads with the first background command (background-bash-launch.ts).
      const { launchBackgroundBash } = await import('./background-bash-launch.js');
      return launchBackgroundBash(tasks, command, ctx, isReadOnly(input, ctx));
    },
  });
}

function isReadOnly(
  input: z.output<ReturnType<typeof backgroundBashInputSchema>>,
  scope: Parameters<Exclude<typeof bashTool.isReadOnly, boolean>>[1],
): boolean {
  const check = bashTool.isReadOnly;
  return typeof check === 'function' ? check(input, scope) : check;
}
