// The process groups this process started: Bash commands and stdio MCP servers, each in a group
// of its own so that stopping it stops whatever it started too. None may outlive warren: every
// group still alive when the process exits (a second Ctrl-C included) gets SIGKILL then, and the
// CLI kills what is left when a run ends.
const live = new Set<number>();
let exitHooked = false;

/** Remembers a group (by its leader's pid) until `releaseGroup`; the first one hooks exit. */
export function trackGroup(pid: number): void {
  live.add(pid);
  if (exitHooked) return;
  exitHooked = true;
  // Only synchronous work is possible on exit: SIGKILL, with no time left for a grace period.
  process.on('exit', killLiveGroups);
}

export function releaseGroup(pid: number): void {
  live.delete(pid);
}

/** Groups started and not yet seen gone, for tests and diagnostics. */
export function liveGroups(): number[] {
  return [...live];
}

/** SIGKILL to every group still tracked; synchronous, so an `exit` handler can run it. */
export function killLiveGroups(): void {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
  live.clear();
}

/**
 * Sends a signal to every process of the group (0 only checks one is there); false when the
 * group is gone, or its id now belongs to someone else's.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: no process left in the group. EPERM: not ours any more.
    return false;
  }
}
