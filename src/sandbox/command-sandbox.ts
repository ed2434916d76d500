// The command sandbox warren runs Bash in: bubblewrap where it can be had, and where it cannot,
// the same command unconfined (the permission policy then asks before each one that is not
// read-only). Either way the command gets warren's environment without its keys.
import type { CommandLaunch, CommandRequest, CommandSandbox } from '../core/command-sandbox.js';
import { bwrapArguments } from './bwrap-arguments.js';
import { probeBwrap } from './bwrap-probe.js';
import { commandEnv } from './command-env.js';

export interface SandboxOptions {
  /** `none` (the default): commands reach no network. `allow`: the host's network. */
  network?: 'none' | 'allow';
  /**
   * Folders every command that may write at all may also write, besides the agent's own (a
   * package manager's cache in the home folder, say). From the user's settings only.
   */
  writable?: readonly string[];
  /** Variables passed to commands although they look like credentials (`GITHUB_TOKEN`). */
  passEnv?: readonly string[];
  /** More variables to withhold: those the run's model configuration names. */
  withholdEnv?: readonly string[];
  /** The bubblewrap program. Default `bwrap`, found on PATH. */
  bwrap?: string;
  /** Told once, the first time it turns out that commands cannot be confined here. */
  onUnconfined?: (why: string) => void;
}

export function createCommandSandbox(options: SandboxOptions = {}): CommandSandbox {
  const bwrap = options.bwrap ?? 'bwrap';
  const envOptions = { passEnv: options.passEnv, withhold: options.withholdEnv };
  let told = false;
  const confines = async () => {
    const availability = await probeBwrap(bwrap);
    if (!availability.confined && !told) {
      told = true;
      options.onUnconfined?.(availability.why);
    }
    return availability;
  };
  return {
    confines,
    async launch(request: CommandRequest): Promise<CommandLaunch> {
      const env = commandEnv(process.env, envOptions, request.env);
      const availability = await confines();
      if (!availability.confined) {
        return { file: 'bash', args: ['-c', request.command], env, confined: false };
      }
      const args = bwrapArguments({
        command: request.command,
        cwd: request.cwd,
        // A command judged read-only gets nothing writable, the extra folders included.
        writableDirs:
          request.writableDirs.length === 0
            ? []
            : [...request.writableDirs, ...(options.writable ?? [])],
        network: options.network ?? 'none',
      });
      // /tmp is the command's own; TMPDIR may name a host folder it could not write.
      return { file: bwrap, args, env: { ...env, TMPDIR: '/tmp' }, confined: true };
    },
  };
}
