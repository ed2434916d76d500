// Whether a process still runs, for tests that prove nothing a run started outlives it. A
// zombie (killed, not yet reaped by whoever inherited it) counts as gone: it runs nothing.
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return true; // no /proc: kill(pid, 0) is all there is
  }
}

/**
 * Waits up to `ms` for a process to be gone. A killed process whose parent has just exited is
 * a zombie until init reaps it, which takes a moment; a process that was never killed stays.
 */
export async function isGoneWithin(pid: number, ms = 2000): Promise<boolean> {
  return (await stillAlive([pid], ms)).length === 0;
}

/** The PIDs of `pids` still alive after waiting up to `ms` for all of them to be gone. */
export async function stillAlive(pids: readonly number[], ms = 2000): Promise<number[]> {
  for (const end = Date.now() + ms; ; await delay(25)) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() >= end) return alive;
  }
}

/** SIGKILL to each of `pids` still alive: cleanup after a test that failed to stop them. */
export function killIfAlive(pids: readonly number[]): void {
  for (const pid of pids.filter(isAlive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
