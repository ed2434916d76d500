// Whether a process still exists, for tests that prove nothing a run started outlives it.
import { setTimeout as delay } from 'node:timers/promises';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits up to `ms` for a process to be gone. A killed process whose parent has just exited is
 * a zombie until init reaps it, which takes a moment; a process that was never killed stays.
 */
export async function isGoneWithin(pid: number, ms = 2000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await delay(25)) {
    if (!isAlive(pid)) return true;
  }
  return !isAlive(pid);
}
