// The command sandbox for tests that prove confinement: where bubblewrap cannot confine anything
// the test fails loudly, never skips (CI installs bubblewrap: .ci/run).
import type { CommandSandbox } from '../../core/command-sandbox.js';
import { createCommandSandbox, type SandboxOptions } from '../../sandbox/command-sandbox.js';

export async function requiredSandbox(options: SandboxOptions = {}): Promise<CommandSandbox> {
  const sandbox = createCommandSandbox(options);
  const availability = await sandbox.confines();
  if (!availability.confined) {
    throw new Error(
      `This test needs the command sandbox and there is none: ${availability.why}. Install bubblewrap (apt-get install bubblewrap) with user namespaces on.`,
    );
  }
  return sandbox;
}
