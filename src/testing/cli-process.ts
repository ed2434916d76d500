// The built `warren` command run as a real process for tests, its output collected: how the
// CLI tests see warren, as a person at a terminal would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const WARREN_BIN = fileURLToPath(new URL('../../bin/warren.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `warren <args>` with exactly the environment given (plus PATH), to its exit. */
export function runWarren(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; stdin?: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARREN_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(options.stdin ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
