// Whether a process a test started (by its PID) still runs: for tests that no process outlives
// warren. A zombie (dead, not yet reaped by whoever inherited it) counts as gone.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: kill(pid, 0) is all there is
  }
}

/** The PIDs of `pids` still running after up to `ms` (a SIGKILL takes a moment to land). */
export async function stillRunning(pids: readonly number[], ms = 2000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const running = pids.filter(isRunning);
    if (running.length === 0 || Date.now() >= until) return running;
    await sleep(20);
  }
}

/** SIGKILL to each PID that still runs: cleanup after a test that failed to stop them. */
export function killIfRunning(pids: readonly number[]): void {
  for (const pid of pids) {
    if (!isRunning(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
