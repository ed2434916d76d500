// The sandbox of one CLI session or `query()`: made from the settings unless they turn it off,
// and, where it cannot confine anything, one line that says so and what follows from it.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { CommandSandbox } from '../core/command-sandbox.js';
import { createCommandSandbox, type SandboxOptions } from './command-sandbox.js';

/** The line shown once when commands cannot be confined. */
export function unconfinedWarning(why: string): string {
  return `commands cannot be sandboxed here: ${why}. Every command that is not read-only is asked about (in -p, denied unless a rule allows it); install bubblewrap (apt-get install bubblewrap), or turn the sandbox off with --no-sandbox to run commands unconfined.`;
}

/**
 * The session's sandbox, or undefined when it is turned off. `warn` gets the line above, at once
 * when bubblewrap is plainly missing, else the first time a command finds it unusable.
 */
export function runSandbox(
  options: SandboxOptions & { enabled: boolean },
  warn: (line: string) => void,
): CommandSandbox | undefined {
  if (!options.enabled) return undefined;
  const sandbox = createCommandSandbox({
    ...options,
    onUnconfined: (why) => warn(unconfinedWarning(why)),
  });
  // Finding the program costs a few stat calls; trying it waits for the first command.
  if (process.platform !== 'linux' || !onPath(options.bwrap ?? 'bwrap')) void sandbox.confines();
  return sandbox;
}

function onPath(program: string): boolean {
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, program));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
