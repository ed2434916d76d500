// Whether a process still runs, and which processes run below one, for tests that prove nothing
// a run started outlives it (record the PIDs while it runs, check each is gone after). A zombie
// (killed, not yet reaped by whoever inherited it) counts as gone: it runs nothing.
import { readdirSync, readFileSync } from 'node:fs';
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

/** Every process whose chain of parents leads to `pid` (not `pid` itself). Linux only. */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command name in parentheses: state, then the parent's PID.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(name), Number(fields[1]));
    } catch {
      // ended while we read
    }
  }
  const below: number[] = [];
  for (const candidate of parentOf.keys()) {
    for (let up = parentOf.get(candidate); up !== undefined && up > 1; up = parentOf.get(up)) {
      if (up === pid) {
        below.push(candidate);
        break;
      }
    }
  }
  return below;
}

/** The live processes whose command line contains `text` (read from /proc, as `ps` is not everywhere). */
export function processesWith(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(text) && isAlive(Number(entry))) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}
