// The sandbox of one CLI session (print mode or the terminal UI): made from the settings unless
// they turn it off, and, where it cannot confine anything, one line that says so and what follows.
import type { CommandSandbox } from '../core/command-sandbox.js';
import { plainlyMissing } from './bwrap-probe.js';
import { createCommandSandbox, type SandboxOptions } from './command-sandbox.js';

/** The line shown once when commands cannot be confined. */
export function unconfinedWarning(why: string): string {
  return `commands cannot be sandboxed here: ${why}. Every command that is not read-only is asked about (in -p, denied unless a rule allows it); install bubblewrap (apt-get install bubblewrap), or turn the sandbox off with --no-sandbox to run commands unconfined.`;
}

/** A session's sandbox, and the line to show at its start when it plainly cannot confine. */
export interface RunSandbox {
  /** Undefined when the sandbox is turned off. */
  sandbox: CommandSandbox | undefined;
  /** Set when this is no Linux or bubblewrap is not on PATH: said once, at the start. */
  warning?: string;
}

/**
 * The session's sandbox, unless the settings turn it off. Where bubblewrap is plainly missing the
 * line above says so at the start; where it is there but cannot make a sandbox (no user
 * namespaces), `warnLater` gets the line the first time a command finds out.
 */
export function runSandbox(
  options: SandboxOptions & { enabled: boolean },
  warnLater: (line: string) => void,
): RunSandbox {
  if (!options.enabled) return { sandbox: undefined };
  // Finding the program costs a few stat calls; trying it waits for the first command.
  const missing = plainlyMissing(options.bwrap ?? 'bwrap');
  if (missing !== undefined) {
    return { sandbox: createCommandSandbox(options), warning: unconfinedWarning(missing) };
  }
  const sandbox = createCommandSandbox({
    ...options,
    onUnconfined: (why) => warnLater(unconfinedWarning(why)),
  });
  return { sandbox };
}
