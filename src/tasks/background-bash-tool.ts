// Bash with `run_in_background`: the same tool, except that such a call starts a `local_bash`
// task on the run's task manager and returns its id at once. Without the flag it is plain Bash.
import { z } from 'zod';
import { defineTool, type PlainTool, type Tool } from '../core/tool.js';
import { BASH_USAGE, bashInputSchema, bashTool, MAX_TIMEOUT_MS } from '../tools/bash.js';
import { launchCommand } from '../tools/command-launch.js';
import type { BackgroundTasks } from './background-tasks.js';
import { bashOutputPath } from './local-bash-executor.js';

const inputSchema = bashInputSchema.extend({
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Run it in the background and return a task id at once; you are notified when it ends.',
    ),
});

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
    inputSchema,
    isReadOnly: (input, scope) => isReadOnly(input, scope),
    notReadOnlyReason: (input, scope) => base.notReadOnlyReason?.(input, scope),
    isConcurrencySafe: false,
    timeoutMs: bashTool.timeoutMs,
    permissionSubject: (input) => input.command,
    async call(input, ctx) {
      const { run_in_background: background, ...command } = input;
      if (!background)
        return base.spawnsAgents ? bashTool.call(command, ctx) : base.call(command, ctx);
      const { agentId, parentId, depth } = ctx.agent;
      const launch = await launchCommand(ctx, {
        command: command.command,
        readOnly: isReadOnly(input, ctx),
      });
      const record = tasks.manager.start(
        tasks.bash,
        {
          command: command.command,
          cwd: ctx.cwd,
          timeoutMs: command.timeout ?? MAX_TIMEOUT_MS,
          outputDir: tasks.outputDir(),
          launch,
        },
        {
          kind: 'local_bash',
          description:
            command.command.length > 80 ? `${command.command.slice(0, 77)}…` : command.command,
          owner: { agentId, parentId, depth },
          spec: { command: command.command, cwd: ctx.cwd },
        },
      );
      const json = JSON.stringify({
        task_id: record.taskId,
        status: record.status,
        output_file: bashOutputPath(tasks.outputDir(), record.taskId),
      });
      return `${json}\nThe command runs in the background. You will be notified when it ends; read its output so far with TaskOutput, stop it with TaskStop.`;
    },
  });
}

function isReadOnly(
  input: z.output<typeof inputSchema>,
  scope: Parameters<Exclude<typeof bashTool.isReadOnly, boolean>>[1],
): boolean {
  const check = bashTool.isReadOnly;
  return typeof check === 'function' ? check(input, scope) : check;
}
