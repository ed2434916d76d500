// How Bash starts a command: through the run's sandbox when it has one, which confines it to the
// folders it may write (none for a command run because it was judged read-only); without one,
// `bash -c` with warren's whole environment, as the sandbox was turned off explicitly.
import type { CommandLaunch } from '../core/command-sandbox.js';
import type { ToolContext } from '../core/tool.js';

export interface LaunchRequest {
  command: string;
  /** Run for its output alone: nothing may be written but the command's private /tmp. */
  readOnly: boolean;
  env?: Readonly<Record<string, string>>;
}

export function launchCommand(
  ctx: Pick<ToolContext, 'cwd' | 'allowedDirs' | 'sandbox'>,
  request: LaunchRequest,
): Promise<CommandLaunch> {
  if (ctx.sandbox === undefined) {
    return Promise.resolve({
      file: 'bash',
      args: ['-c', request.command],
      env: { ...process.env, ...request.env },
      confined: false,
    });
  }
  return ctx.sandbox.launch({
    command: request.command,
    cwd: ctx.cwd,
    writableDirs: request.readOnly ? [] : ctx.allowedDirs,
    ...(request.env && { env: request.env }),
  });
}
