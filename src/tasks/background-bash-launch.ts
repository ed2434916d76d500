// A background Bash command started: its process launched (sandboxed as a call's would be), a
// `local_bash` task on the run's task manager, and the task id with its output file returned.
import type { ToolContext } from '../core/tool.js';
import { type BashInput, MAX_TIMEOUT_MS } from '../tools/bash.js';
import { launchCommand } from '../tools/command-launch.js';
import type { BackgroundTasks } from './background-tasks.js';
import { bashOutputPath } from './local-bash-executor.js';

export async function launchBackgroundBash(
  tasks: BackgroundTasks,
  command: BashInput,
  ctx: ToolContext,
  readOnly: boolean,
): Promise<string> {
  const { agentId, parentId, depth } = ctx.agent;
  const executor = await tasks.bash();
  const launch = await launchCommand(ctx, {
    command: command.command,
    readOnly,
  });
  const record = tasks.manager.start(
    executor,
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
}
